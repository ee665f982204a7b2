/**
 * batches.json in a batch run's (or batch experiment's) directory: every provider batch, its items
 * and its state, written as soon as the batch exists, so `--resume` on any machine collects it.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { BatchApiName } from "../types/providers.js";
import { InputError } from "../errors.js";
import { writeJsonFile } from "./write-files.js";

export const BATCH_FILE = "batches.json";

export interface BatchItem {
  key: string;
  case_id: string;
  trial: number;
}

/** One provider batch: who answers it (OpenAI takes one model per batch), its items and its state. */
export interface BatchRecord {
  id: string;
  provider: BatchApiName;
  model: string;
  /** Without credentials, as the store entries name it. */
  base_url: string;
  round: number;
  /** The provider's state as last seen (validating, in_progress, completed, ended, failed, expired, cancelled…). */
  state: string;
  items: BatchItem[];
  collected: boolean;
}

export interface BatchState {
  batches: BatchRecord[];
  /** Keys whose batch item failed or expired, with the provider's reason. */
  failed: Record<string, string>;
}

/** A directory's batches.json (none yet: no batches), and how to write it back. */
export function loadBatchFile(dir: string): { state: BatchState; save: () => void } {
  const file = join(dir, BATCH_FILE);
  const state = existsSync(file) ? readBatchState(file) : { batches: [], failed: {} };
  return { state, save: () => writeJsonFile(file, state) };
}

/** loadBatchFile for `batch status|cancel`: a directory without batches.json is refused. */
export function openBatchFile(dir: string): { state: BatchState; save: () => void } {
  if (!existsSync(join(dir, BATCH_FILE)))
    throw new InputError(
      `${dir}: no ${BATCH_FILE} (not a batch run; batch runs are started with run --batch or ablate --batch)`,
    );
  return loadBatchFile(dir);
}

/** batches.json; one written before each batch named its provider holds them once, at the top. */
function readBatchState(file: string): BatchState {
  let raw: Partial<BatchState> & Partial<Pick<BatchRecord, "provider" | "model" | "base_url">>;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new InputError(
      `${file}: not readable JSON (${error instanceof Error ? error.message : String(error)}); it lists the run's provider batches — restore it, or cancel them at the provider and start a new run`,
    );
  }
  const batches = (raw.batches ?? []).map(
    (b): BatchRecord =>
      ({
        ...b,
        provider: b.provider ?? raw.provider,
        model: b.model ?? raw.model,
        base_url: b.base_url ?? raw.base_url,
      }) as BatchRecord,
  );
  return { batches, failed: raw.failed ?? {} };
}
