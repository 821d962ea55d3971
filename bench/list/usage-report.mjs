// Preloaded (`node --import`) into the benchmarked `addressd validate`: at exit it writes the
// process's CPU time (every thread's: getrusage of the whole process) and peak RSS to the file
// named by BENCH_USAGE_FILE, for CPU per row without sampling.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_USAGE_FILE;
if (file) {
  process.on('exit', () => {
    const cpu = process.cpuUsage();
    writeFileSync(file, JSON.stringify({ userUs: cpu.user, systemUs: cpu.system, maxRssKb: process.resourceUsage().maxRSS }));
  });
}
