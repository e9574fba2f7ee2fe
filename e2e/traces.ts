// Traces the replay specs write themselves (never a downloaded one).

/** An MSR-Cambridge trace of two disks over 4 s (filetime ticks, 100 ns), 4 KiB-aligned, 400 I/Os. */
export function msrTrace(): string {
  const lines: string[] = [];
  let seed = 7;
  const next = () => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31; };
  for (let i = 0; i < 400; i += 1) {
    const ticks = 128166372003061629n + BigInt(Math.round((i / 399) * 4e7)); // beyond a double's 53 bits
    const size = [4096, 8192, 65536][Math.floor(next() * 3)]!;
    const type = next() < 0.3 ? 'Write' : 'Read';
    lines.push(`${ticks},hm,${i % 2},${type},${Math.floor(next() * 2000) * 4096},${size},${200 + Math.floor(next() * 5000)}`);
  }
  return `${lines.join('\r\n')}\r\n`;
}
