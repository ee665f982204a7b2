/**
 * The `command` endpoint: your agent or router as an executable. route-eval starts it (through
 * the shell) once per concurrent worker and keeps it: each trial is one JSON line on its stdin,
 * answered by one JSON line on its stdout (protocol route-eval-endpoint/1). A reply that does not
 * fit the protocol errors that trial; a process that dies, hangs or writes something else is
 * killed and restarted (bounded), its stderr tail shown. Answers go through the response store.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { inertLine } from "../text/inert.js";
import type { AttemptVerdict } from "./retry.js";
import {
  AgentError,
  checkNeutralReply,
  normaliseNeutralReply,
  ProtocolError,
  renderNeutralRequest,
  type NeutralControls,
  type NeutralRequest,
} from "./neutral-wire.js";
import type { WireEndpoint } from "./wire-endpoint.js";

export interface CommandSettings {
  command: string;
  version: string | null;
  /** The run's model label (config model, default "command"). */
  model: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** At most this many processes at once (the run's concurrency). */
  workers: number;
  timeoutMs: number;
  controls: NeutralControls;
  /** Processes that may die (or be killed for a hang or a protocol error) before the run stops. */
  maxRestarts: number;
}

/** The longest reply line read; a longer one is a protocol error (a runaway process must not fill memory). */
export const MAX_REPLY_BYTES = 8 * 1024 * 1024;
const STDERR_TAIL = 2_000;
const CLOSE_GRACE_MS = 1_000;

/** The process is gone (exited, killed after a hang or a bad line): the next attempt starts a new one. */
class ProcessFailure extends Error {}

/** Too many processes died: the command itself is broken (not found, crashes at start). */
class CommandBroken extends Error {}

interface Pending {
  id: string;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

class Worker {
  private readonly child: ChildProcessWithoutNullStreams;
  private buffer = "";
  private bytes = 0;
  private pending: Pending | null = null;
  private stderr = "";
  alive = true;
  readonly exited: Promise<void>;

  constructor(settings: CommandSettings, onExit: (worker: Worker) => void) {
    // Its own process group: a shell, a shim or a pipeline (`agent | cat`) is killed whole, so no
    // orphan keeps the pipes open (and the run waiting) after a hang.
    this.child = spawn(settings.command, {
      shell: true,
      detached: true,
      cwd: settings.cwd,
      env: settings.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    track(this.child);
    this.child.stdout.setEncoding("utf8");
    this.child.stderr.setEncoding("utf8");
    this.child.stdout.on("data", (chunk: string) => this.read(chunk));
    this.child.stderr.on(
      "data",
      (chunk: string) => void (this.stderr = (this.stderr + chunk).slice(-STDERR_TAIL)),
    );
    this.child.stdin.on("error", () => undefined); // EPIPE when it died: the exit handler reports it
    this.exited = new Promise((resolve) => {
      this.child.on("error", (error) =>
        this.fail(new ProcessFailure(`could not start: ${error.message}`)),
      );
      // The process is gone: whatever it left behind in its group goes too, and its pipes are closed
      // here (a process that left the group must not hold this worker open).
      this.child.on("exit", () => {
        LIVE.delete(this.child);
        killGroup(this.child);
        for (const stream of [this.child.stdin, this.child.stdout, this.child.stderr])
          stream.destroy();
      });
      this.child.on("close", (code, signal) => {
        this.alive = false;
        this.fail(
          new ProcessFailure(
            `exited (${signal === null ? `code ${code}` : signal}) before answering${this.tail()}`,
          ),
        );
        onExit(this);
        resolve();
      });
    });
  }

  ask(request: NeutralRequest & { id: string }, timeoutMs: number): Promise<unknown> {
    if (!this.alive)
      return Promise.reject(new ProcessFailure(`exited before it was asked${this.tail()}`));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          this.kill(
            new ProcessFailure(
              `timed out after ${timeoutMs} ms (the process was killed and will be restarted)${this.tail()}`,
            ),
          ),
        timeoutMs,
      );
      this.pending = { id: request.id, resolve, reject, timer };
      this.child.stdin.write(`${JSON.stringify(request)}\n`);
    });
  }

  /** The last lines of its stderr, for messages (inert: it is the agent's text). */
  tail(): string {
    const lines = this.stderr
      .trim()
      .split("\n")
      .filter((l) => l.trim() !== "")
      .slice(-3);
    return lines.length === 0
      ? ""
      : `; its stderr ends: ${inertLine(lines.join(" | ")).slice(-400)}`;
  }

  kill(reason: Error): void {
    this.fail(reason);
    this.alive = false;
    killGroup(this.child);
  }

  close(): Promise<void> {
    if (this.alive) {
      this.child.stdin.end();
      setTimeout(() => killGroup(this.child), CLOSE_GRACE_MS).unref();
    }
    return this.exited;
  }

  private read(chunk: string): void {
    if (!this.alive) return; // killed: what it still writes is not read
    this.bytes += chunk.length;
    this.buffer += chunk;
    const newline = this.buffer.indexOf("\n");
    if (newline === -1) {
      if (this.bytes > MAX_REPLY_BYTES)
        this.kill(
          new ProtocolError(
            `wrote more than ${MAX_REPLY_BYTES} bytes without ending the reply line`,
          ),
        );
      return;
    }
    const line = this.buffer.slice(0, newline).replace(/\r$/, "");
    this.buffer = this.buffer.slice(newline + 1);
    this.bytes = this.buffer.length;
    const pending = this.pending;
    if (pending === null) {
      this.kill(new ProtocolError("wrote a line while no request was waiting"));
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      // The stream is out of step (a log line on stdout?): this process cannot be trusted with the next request.
      this.kill(
        new ProtocolError(
          `wrote a line that is not JSON (write logs to stderr, one JSON reply per line to stdout): ${inertLine(line).slice(0, 120)}`,
        ),
      );
      return;
    }
    const id =
      typeof value === "object" && value !== null && "id" in value
        ? (value as { id: unknown }).id
        : undefined;
    if (id !== pending.id) {
      this.kill(
        new ProtocolError(
          `answered with id ${JSON.stringify(id) ?? "(none)"} where request ${pending.id} was waiting (echo the request's id)`,
        ),
      );
      return;
    }
    this.settle(pending);
    pending.resolve(value);
  }

  private fail(error: Error): void {
    const pending = this.pending;
    if (pending === null) return;
    this.settle(pending);
    pending.reject(error);
  }

  private settle(pending: Pending): void {
    clearTimeout(pending.timer);
    this.pending = null;
  }
}

/** Every agent process running, so that none outlives route-eval (an exit, a crash or a second Ctrl-C). */
const LIVE = new Set<ChildProcessWithoutNullStreams>();
let cleanupInstalled = false;

function track(child: ChildProcessWithoutNullStreams): void {
  LIVE.add(child);
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  process.once("exit", () => LIVE.forEach(killGroup));
}

/** SIGKILL to the process's whole group (it leads one: spawned detached). */
function killGroup(child: ChildProcessWithoutNullStreams): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
  } catch {
    child.kill("SIGKILL"); // the group is gone already, or this platform has none
  }
}

/** The processes of one endpoint: reused across trials, one request at a time each. */
export interface CommandPool {
  ask(request: NeutralRequest): Promise<unknown>;
  close(): Promise<void>;
}

export function createCommandPool(settings: CommandSettings): CommandPool {
  const idle: Worker[] = [];
  const all = new Set<Worker>();
  const waiting: { resolve: (worker: Worker) => void; reject: (error: Error) => void }[] = [];
  let deaths = 0;
  let lastDeath = "";
  let seq = 0;
  const start = (): Worker => {
    if (deaths > settings.maxRestarts) throw new CommandBroken(lastDeath);
    const worker = new Worker(settings, (gone) => {
      all.delete(gone);
      const at = idle.indexOf(gone);
      if (at !== -1) idle.splice(at, 1);
      dispatch(); // its slot is free: a waiting trial starts a fresh process
    });
    all.add(worker);
    return worker;
  };
  // Hands idle processes, or new ones while there is room, to the trials waiting in order.
  const dispatch = (): void => {
    while (waiting.length > 0) {
      const ready = idle.pop();
      if (ready !== undefined) {
        waiting.shift()?.resolve(ready);
      } else if (all.size < settings.workers) {
        const next = waiting.shift();
        try {
          next?.resolve(start());
        } catch (error) {
          next?.reject(error as Error);
        }
      } else {
        return;
      }
    }
  };
  const acquire = () =>
    new Promise<Worker>((resolve, reject) => {
      waiting.push({ resolve, reject });
      dispatch();
    });
  return {
    ask: async (request) => {
      const worker = await acquire();
      try {
        const answer = await worker.ask({ ...request, id: String(++seq) }, settings.timeoutMs);
        // A command that answers is not broken: only failures in a row stop the run (an agent
        // that hangs on one request in four is restarted each time and finishes).
        deaths = 0;
        return answer;
      } catch (error) {
        if (error instanceof ProcessFailure || error instanceof ProtocolError) {
          deaths += 1;
          lastDeath = error.message;
          if (deaths > settings.maxRestarts) throw new CommandBroken(error.message);
        }
        throw error;
      } finally {
        if (worker.alive) idle.push(worker);
        dispatch();
      }
    },
    close: async () => {
      await Promise.all([...all].map((w) => w.close()));
    },
  };
}

export function createCommandWire(settings: CommandSettings): WireEndpoint<NeutralRequest> {
  const pool = createCommandPool(settings);
  const label = `endpoint command \`${inertLine(settings.command)}\``;
  return {
    id: "command",
    model: settings.model,
    baseUrl: settings.command,
    unavailable: null,
    render: (request) => renderNeutralRequest(request, settings.controls, settings.version),
    send: async (body) => {
      const started = performance.now();
      const reply = await pool.ask(body);
      checkNeutralReply(reply, "the reply");
      return {
        body: reply,
        request_id: null,
        latency_ms: Math.round((performance.now() - started) * 1000) / 1000,
      };
    },
    normalise: normaliseNeutralReply,
    classify: (error, where) => classifyCommandFailure(error, where, label, settings.maxRestarts),
    close: () => pool.close(),
  };
}

function classifyCommandFailure(
  error: unknown,
  where: string,
  label: string,
  maxRestarts: number,
): AttemptVerdict {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof CommandBroken) {
    return {
      kind: "fatal",
      message: `${label} failed more than ${maxRestarts + 1} times in a row (last: ${message}); run it by hand with one request line on stdin to see why`,
    };
  }
  if (error instanceof ProcessFailure)
    return {
      kind: "retryable",
      cause: "transport",
      message: `${label} ${message}`,
      retryAfterMs: null,
    };
  if (error instanceof ProtocolError)
    return { kind: "errored", message: `${label} ${message} (${where})` };
  if (error instanceof AgentError) return { kind: "errored", message: `${label}: ${message}` };
  return { kind: "errored", message: `${label}: ${message}` };
}
