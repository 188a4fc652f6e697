// Loaded with `--import` by the CPU pool's worker threads when the service runs from its TypeScript sources
// (vitest, tsx). `--import tsx` registers nothing in a worker on Node 20 (tsx leaves that to the main
// thread), so the worker registers tsx's loader itself before Piscina imports cpu-tasks.ts.
// Plain JavaScript because it runs before anything can load TypeScript; the compiled dist/ never uses it.
import { register } from 'tsx/esm/api';

register();
