/**
 * Values held once for every settled tally that has them alike (settle-tally.ts): lists, counts
 * and first-trial fields, frozen, found by their JSON or by the numbers of the values they hold.
 */
/**
 * Values many settled tallies hold alike, each held once: the cases of a run mostly end alike
 * (every trial correct: the same rates, outcomes, stages…), so a settled tally costs its case's
 * name, not a copy of every count. Frozen: a tally thaws its own copies to count.
 */
export class SharedValues {
  private readonly byJson = new Map<string, unknown>();
  /** A record's list shared before (a phase's exposed names, met by every trial of it) → the one held. */
  private readonly known = new WeakMap<object, unknown>();
  /** Each held value's number, for the key of objects made of them. */
  private readonly numbers = new Map<unknown, number>();
  private readonly byMembers = new Map<string, unknown>();
  private readonly lists = new Map<string, unknown[]>();
  private readonly byKey = new Map<string, unknown>();

  /**
   * The held value equal to this one (plain data), or a frozen copy of it held from now on; past
   * `LIMIT` values (cases that all differ), the value itself.
   */
  share<T>(value: T): T {
    if (typeof value !== "object" || value === null) return value;
    const key = JSON.stringify(value);
    let held = this.byJson.get(key);
    if (held === undefined) {
      if (this.byJson.size >= LIMIT) return value;
      this.byJson.set(key, (held = deepFreeze(JSON.parse(key))));
      this.numbers.set(held, this.numbers.size);
    }
    return held as T;
  }

  /** Each value shared, the list of them keyed once: the same values met again are one lookup. */
  shareEach<T extends unknown[]>(values: T): T {
    const key = JSON.stringify(values);
    let held = this.lists.get(key) as T | undefined;
    if (held === undefined) {
      held = values.map((value) => this.share(value)) as T;
      if (this.lists.size < LIMIT) this.lists.set(key, held);
    }
    return held;
  }

  /** A record's list (never changed once made), shared: the same list met again is not written out again. */
  shareList(list: readonly string[]): string[] {
    if (typeof list !== "object" || list === null) return list;
    let held = this.known.get(list) as string[] | undefined;
    if (held === undefined) this.known.set(list, (held = this.share(list as string[])));
    return held;
  }

  /** The value held under `key`, or `make()`'s, held from now on (past `LIMIT` keys, made each time). */
  keyed<T>(key: string, make: () => T): T {
    let held = this.byKey.get(key) as T | undefined;
    if (held === undefined) {
      held = make();
      if (this.byKey.size < LIMIT) this.byKey.set(key, held);
    }
    return held;
  }

  /**
   * An object every member of which is a scalar or a held value: the one such object for all
   * alike (else this one), keyed by its members' numbers, not written out.
   */
  shareMembers<T extends object>(value: T): T {
    let key = "";
    for (const member of Object.values(value)) {
      if (typeof member === "string") key += JSON.stringify(member);
      else if (typeof member !== "object" || member === null) key += `,${member}`;
      else {
        const number = this.numbers.get(member);
        if (number === undefined) return value;
        key += `#${number}`;
      }
    }
    const held = this.byMembers.get(key);
    if (held !== undefined) return held as T;
    if (this.byMembers.size < LIMIT) {
      this.byMembers.set(key, value);
      this.numbers.set(value, this.numbers.size);
    }
    return value;
  }
}

const LIMIT = 100_000;

function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  for (const member of Object.values(value)) deepFreeze(member);
  return Object.freeze(value);
}
