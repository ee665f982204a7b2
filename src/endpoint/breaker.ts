/**
 * The circuit breaker of one endpoint: a run against an endpoint that is down must stop loudly
 * (exit 3, with the resume command) instead of recording a green run of errored trials. It trips
 * when the first calls of the run all fail with transport errors, 5xx or unreadable replies, or
 * when no call has succeeded for a window while calls keep failing that way. A call's failure
 * counts once its retry has failed too (retry.ts): an endpoint that hangs on one request in four
 * answers every retry, and is up. Rate limits (429) never trip it: they slow the run down instead
 * (pace.ts).
 */
export interface BreakerSettings {
  /** No success for this long, while failing, stops the run. */
  windowMs: number;
  /** This many failed retries before the first success of the run stop it. */
  startFailures: number;
  now: () => number;
}

export interface Breaker {
  success(): void;
  failure(message: string): void;
  /** A call's first attempt failed: not counted, but its retry is due by the time the window closes. */
  suspect(): void;
  /** Why the run must stop, once tripped; null while the endpoint may still be up. */
  tripped(): string | null;
  /** While calls fail: when the window without a success closes (a retry waits no longer than that); null otherwise. */
  closesAt(): number | null;
}

export const START_FAILURES = 20;

/** "1.5 s" under ten seconds, "42 s" above. */
function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

export function createBreaker(endpoint: string, settings: BreakerSettings): Breaker {
  let lastSuccess = settings.now();
  let succeeded = false;
  let failuresSinceSuccess = 0;
  let suspectsSinceSuccess = 0;
  let reason: string | null = null;
  return {
    success: () => {
      succeeded = true;
      lastSuccess = settings.now();
      failuresSinceSuccess = 0;
      suspectsSinceSuccess = 0;
    },
    suspect: () => {
      suspectsSinceSuccess += 1;
    },
    failure: (message) => {
      if (reason !== null) return;
      failuresSinceSuccess += 1;
      const quiet = settings.now() - lastSuccess;
      if (!succeeded && failuresSinceSuccess >= settings.startFailures) {
        reason = `${endpoint} looks down: no call of the run has succeeded, and ${failuresSinceSuccess} retries failed (last: ${message})`;
      } else if (failuresSinceSuccess >= 2 && quiet >= settings.windowMs) {
        const since = succeeded ? "succeeded" : "succeeded since the run started";
        reason = `${endpoint} looks down: no call has ${since} for ${seconds(quiet)} while ${failuresSinceSuccess} attempts failed (last: ${message})`;
      }
    },
    tripped: () => reason,
    closesAt: () =>
      failuresSinceSuccess + suspectsSinceSuccess > 0 ? lastSuccess + settings.windowMs : null,
  };
}
