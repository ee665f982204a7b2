import { InputError } from "../errors.js";
import type { Config, Endpoint } from "../types.js";
import { createBaselineEndpoint } from "./baseline.js";

/** The endpoint named by config (`baseline`, or `provider:model`). */
export function createEndpoint(config: Config): Endpoint {
  const [provider] = config.endpoint.split(":", 1);
  switch (provider) {
    case "baseline":
      return createBaselineEndpoint();
    default:
      throw new InputError(`unknown endpoint "${config.endpoint}" (expected: baseline)`);
  }
}
