/**
 * What a command takes from the world, built once in cli.ts (tests build their own): the
 * environment (API keys), the working directory (relative paths, shown paths) and the clock.
 * No other module reads process.env, process.cwd() or the wall clock for a run's facts.
 */
export interface RunContext {
  env: NodeJS.ProcessEnv;
  cwd: string;
  now: () => Date;
}
