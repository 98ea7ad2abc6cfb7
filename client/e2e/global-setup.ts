// Starts `pagoda serve` on a free 127.0.0.1 port with a temporary SQLite database, publishes
// its URL in PAGODA_E2E_URL (read by the config's baseURL in the worker) and returns the teardown.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..', '..');

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => ok(port));
    });
  });
}

async function waitUp(url: string, child: ChildProcess, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (child.exitCode !== null) throw new Error(`pagoda serve exited with ${child.exitCode}`);
    try {
      const r = await fetch(`${url}/api/games`);
      if (r.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`pagoda serve did not answer at ${url} within ${ms} ms`);
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  const exe = process.env.PAGODA ?? join(ROOT, '.venv', 'bin', 'pagoda');
  if (!existsSync(exe)) throw new Error(`${exe} is missing: run \`make install\` first`);
  const dist = join(ROOT, 'client', 'dist', 'index.html');
  if (!existsSync(dist)) throw new Error('client/dist is missing: run `make client` first');

  const dir = mkdtempSync(join(tmpdir(), 'pagoda-e2e-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // no bot delay and a short bomb window keep a whole round within seconds
  const child = spawn(
    exe,
    ['serve', '--host', '127.0.0.1', '--port', String(port), '--db', join(dir, 'e2e.sqlite3'),
      '--client', join(ROOT, 'client', 'dist'), '--bot-delay', '0', '--bomb-window', '0.2',
      // every spec's tables come from one loopback address: more than the default 16 stay live at once
      '--tables-per-address', '200'],
    { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, PAGODA_SECRET: 'e2e' } },
  );
  try {
    await waitUp(url, child, 20_000);
  } catch (e) {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  process.env.PAGODA_E2E_URL = url;

  return async () => {
    if (child.exitCode === null) {
      const done = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await done;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
}
