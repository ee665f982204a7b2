/** JSON: part of the records of route-eval (see ../types.ts). */

/** JSON as parsed: what files, records and API bodies hold before they are typed further. */
export type JsonValue =
  null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** A location inside parsed data: object keys and array indices, outermost first. */
export type JsonPath = (string | number)[];
