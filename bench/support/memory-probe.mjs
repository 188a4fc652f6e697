/**
 * Loaded into the bench's server with `node --import` (scenario 5 only), so the server's code is the one that ships.
 * On SIGWINCH it writes the process's memory as Node sees it (main thread's V8 heap, external memory, ArrayBuffers)
 * to MEMORY_PROBE_FILE; on SIGUSR2 it first runs a full collection, to tell live objects from garbage not yet collected.
 * Plain JavaScript: the server runs the built dist/ without a TypeScript loader.
 */
import fs from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';

const file = process.env.MEMORY_PROBE_FILE;
if (file !== undefined && file !== '') {
  v8.setFlagsFromString('--expose-gc');
  const collect = vm.runInNewContext('gc');
  const write = () => {
    const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((space) => [space.space_name, { used: space.space_used_size, size: space.space_size }]));
    // Written aside and renamed, so the bench never reads a file half written.
    fs.writeFileSync(`${file}.tmp`, JSON.stringify({ at: Date.now(), usage: process.memoryUsage(), spaces }));
    fs.renameSync(`${file}.tmp`, file);
  };
  process.on('SIGWINCH', write);
  process.on('SIGUSR2', () => {
    collect();
    write();
  });
}
