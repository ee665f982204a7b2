import { resolve } from "node:path";
import { readYamlFile } from "../config/yaml-document.js";
import { InputError, at } from "../errors.js";
import type { Registry } from "../types.js";
import { parseRegistry } from "./parse-registry.js";

/** Registries already loaded, by absolute path: a snapshot shared by many case files loads once. */
export type RegistryCache = Map<string, Registry>;

export function createRegistryCache(): RegistryCache {
  return new Map();
}

/**
 * Load one registry snapshot for a run: its first problem (parseRegistry) is an InputError
 * (a tool known by name alone is not one: lint reports it).
 */
export function loadRegistry(file: string, cwd: string, cache?: RegistryCache): Registry {
  const absolute = resolve(cwd, file);
  const cached = cache?.get(absolute);
  if (cached !== undefined) return cached;
  const registry = readRegistry(absolute, cwd);
  cache?.set(absolute, registry);
  return registry;
}

function readRegistry(file: string, cwd: string): Registry {
  const yaml = readYamlFile(file, cwd);
  const { registry, problems } = parseRegistry(yaml);
  // A tool known by name alone is a lint finding, not a reason to refuse the snapshot.
  const first = problems.find((problem) => problem.rule !== "tool-partial");
  if (first !== undefined) throw new InputError(at(yaml.shown, first.line, first.message));
  if (registry === null) throw new InputError(at(yaml.shown, 1, "does not match its schema"));
  return registry;
}
