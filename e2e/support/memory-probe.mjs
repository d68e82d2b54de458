// Preloaded into a server under test (node --expose-gc --import ./e2e/support/memory-probe.mjs):
// on SIGUSR2 it runs a full garbage collection and writes process.memoryUsage() to the file
// named by MEMORY_PROBE_FILE, so that a test can tell live memory from the garbage collector's
// slack (resident size alone swings by ±20 % between samples as the heap grows and shrinks).
import fs from 'node:fs';

const file = process.env.MEMORY_PROBE_FILE;
if (file && typeof globalThis.gc === 'function') {
  process.on('SIGUSR2', () => {
    globalThis.gc();
    globalThis.gc();
    const tmp = `${file}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(process.memoryUsage()));
    fs.renameSync(tmp, file);
  });
}
