/**
 * The records of route-eval, in pipeline order:
 * Tool → Registry → Case → Exposure → Request → Response → TrialRecord → Metrics → Report.
 * Everything past the loaders trusts these types; validation happens once at the boundary.
 * One file per stage under types/; import them from here.
 */
export * from "./types/json.js";
export * from "./types/tools.js";
export * from "./types/config.js";
export * from "./types/cases.js";
export * from "./types/discovery.js";
export * from "./types/endpoint.js";
export * from "./types/records.js";
export * from "./types/rates.js";
export * from "./types/metrics.js";
export * from "./types/report.js";
export * from "./types/traces.js";
