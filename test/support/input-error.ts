import { InputError } from "../../src/errors.js";

/** The InputError the action throws (any other error is rethrown; none fails the test). */
export function errorOf(action: () => unknown): InputError {
  try {
    action();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error("expected an InputError");
}
