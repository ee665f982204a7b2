/**
 * A tool name read as an action and its objects: `lookup_order_by_email` → verb "lookup" (class
 * retrieve), objects {order, email}. Two names whose verbs are the same or synonyms and whose
 * objects overlap (or who share a family) compete for the same requests.
 */
import { tokenize } from "../text/tokenize.js";

/** Verbs a model reads as interchangeable. A verb outside every class matches only itself. */
const VERB_CLASSES: Record<string, string[]> = {
  retrieve: [
    "search",
    "find",
    "lookup",
    "look",
    "get",
    "retrieve",
    "list",
    "fetch",
    "query",
    "read",
    "show",
    "view",
    "describe",
    "browse",
    "locate",
  ],
  send: [
    "send",
    "notify",
    "message",
    "text",
    "sms",
    "email",
    "mail",
    "contact",
    "alert",
    "ping",
    "broadcast",
  ],
  create: ["create", "new", "make", "insert", "register", "generate"],
  update: ["update", "edit", "modify", "change", "set", "patch", "rename", "replace"],
  delete: ["delete", "remove", "purge", "erase", "destroy", "drop", "wipe"],
};

const CLASS_OF = new Map(
  Object.entries(VERB_CLASSES).flatMap(([cls, verbs]) => verbs.map((verb) => [verb, cls])),
);

/** Words that qualify an action without changing its object. */
const QUALIFIERS = new Set([
  "bulk",
  "batch",
  "mass",
  "multi",
  "many",
  "all",
  "single",
  "web",
  "online",
  "remote",
  "local",
  "async",
]);

/**
 * Object words that say "some data about" rather than what it is about: `get_charger_data` and
 * `get_coin_data` do not compete because both end in "data". They are kept as objects, but never
 * count as shared words or as the head noun.
 */
const GENERIC_OBJECTS = new Set(
  [
    "info",
    "information",
    "detail",
    "details",
    "data",
    "status",
    "list",
    "summary",
    "result",
    "results",
    "item",
    "items",
    "record",
    "records",
  ].flatMap((word) => tokenize(word)),
);

/** Words after one of these qualify the object (`lookup_order_by_email`: the object is the order). */
const PREPOSITIONS = new Set([
  "by",
  "for",
  "with",
  "from",
  "via",
  "in",
  "on",
  "of",
  "to",
  "per",
  "using",
]);

export interface NameParts {
  verb: string | null;
  /** The verb's synonym class, or the verb itself when it belongs to none. */
  verbKey: string | null;
  /** Object words (stemmed) before any preposition, each once. */
  objects: string[];
  /** The head noun: the last object word that is not generic ("order" in get_order_status), or null. */
  head: string | null;
}

/** The first word from a verb class is the verb; else the first word that is not a qualifier. */
export function splitName(name: string): NameParts {
  const raw = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const stop = raw.findIndex((word, index) => index > 0 && PREPOSITIONS.has(word));
  const words = (stop === -1 ? raw : raw.slice(0, stop)).flatMap((word) => tokenize(word));
  const verb =
    words.find((word) => CLASS_OF.has(word)) ?? words.find((word) => !QUALIFIERS.has(word)) ?? null;
  const objects = [...new Set(words.filter((word) => word !== verb && !QUALIFIERS.has(word)))];
  const specific = objects.filter((word) => !GENERIC_OBJECTS.has(word));
  return {
    verb,
    verbKey: verb === null ? null : (CLASS_OF.get(verb) ?? verb),
    objects,
    head: specific.at(-1) ?? null,
  };
}

export interface NameRelation {
  score: number;
  why: string;
}

const UNRELATED: NameRelation = Object.freeze({ score: 0, why: "" });

/**
 * verb factor (1 same verb, 0.8 synonyms, else 0) × object factor: 0.5 + 0.5 × Jaccard of the
 * objects when they overlap enough in words that are not generic (same head noun, or Jaccard ≥
 * 0.5); else 0.5 when both sit in the same family; else 0.
 */
export function relateNames(a: NameParts, b: NameParts, sameFamily: string | null): NameRelation {
  if (a.verb === null || b.verb === null || a.verbKey !== b.verbKey) return UNRELATED;
  const verbFactor = a.verb === b.verb ? 1 : 0.8;
  // Objects are distinct words, so the union is both less what they share.
  let common = 0;
  let specific = 0;
  for (const word of a.objects) {
    if (!b.objects.includes(word)) continue;
    common += 1;
    if (!GENERIC_OBJECTS.has(word)) specific += 1;
  }
  const union = Math.max(1, a.objects.length + b.objects.length - common);
  const jaccard = specific / union;
  // Nothing is allocated for a pair that does not compete (most pairs a large registry scores).
  if (specific > 0 && (jaccard >= 0.5 || a.head === b.head)) {
    const shared = a.objects
      .filter((word) => b.objects.includes(word) && !GENERIC_OBJECTS.has(word))
      .join(" ");
    const key = `${a.verb} ${b.verb} ${shared} ${union}`;
    return (
      relations.get(key) ??
      remember(key, verbFactor * (0.5 + 0.5 * jaccard), `${verbs(a, b)} over "${shared}"`)
    );
  }
  if (sameFamily === null) return UNRELATED;
  const key = `${a.verb} ${b.verb} ${sameFamily}`;
  return (
    relations.get(key) ??
    remember(key, verbFactor * 0.5, `${verbs(a, b)} in family "${sameFamily}"`)
  );
}

function verbs(a: NameParts, b: NameParts): string {
  return a.verb === b.verb ? `same verb "${a.verb}"` : `synonym verbs "${a.verb}"/"${b.verb}"`;
}

/**
 * One relation object per distinct relation: a registry of thousands of tools relates a million
 * pairs in a few hundred ways, and each pair keeps its relation. Cleared when it grows past
 * RELATIONS_KEPT, so it never holds more than that.
 */
function remember(key: string, score: number, why: string): NameRelation {
  if (relations.size >= RELATIONS_KEPT) relations.clear();
  const relation = Object.freeze({ score, why });
  relations.set(key, relation);
  return relation;
}

const RELATIONS_KEPT = 100_000;
const relations = new Map<string, NameRelation>();
