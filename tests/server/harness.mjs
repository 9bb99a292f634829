// What the three server test files share: where the binary and the knowledge base are, the
// seed, a temporary index, and an `errata serve` started on a free port and stopped with
// SIGTERM (its exit status is part of what the tests check).
//
// Environment: ERRATA_BIN (default ../../build/errata), ERRATA_DB (default: an index built from
// ../../kb into a temporary directory), ERRATA_TEST_PIDS (a file to which the id of every
// process started here is appended, so run.sh can stop what a failed test left running).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(HERE, '../..');
export const BIN = process.env.ERRATA_BIN ? resolve(process.env.ERRATA_BIN) : join(ROOT, 'build/errata');
export const SEED_TEXT = 'RuntimeError: torch.compile is not supported for PEFT models with dynamic adapters';
export const SEED_ID = 'huggingface/torch-compile-incompatible-with-peft';

let tmp;

export function notePid(pid) {
  if (pid && process.env.ERRATA_TEST_PIDS) appendFileSync(process.env.ERRATA_TEST_PIDS, `${pid}\n`);
}

// The index to test against: $ERRATA_DB, or one built now from the bundled knowledge base.
export function ensureIndex(prefix) {
  if (process.env.ERRATA_DB) return process.env.ERRATA_DB;
  tmp = mkdtempSync(join(tmpdir(), `errata-${prefix}-`));
  const out = join(tmp, 'index.db');
  const r = spawnSync(BIN, ['build', join(ROOT, 'kb'), '-o', out], { encoding: 'utf8' });
  assert.equal(r.status, 0, `errata build failed: ${r.stderr}`);
  return out;
}

export function removeIndex() {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  tmp = undefined;
}

// Starts `errata serve` on a free port; resolves once it prints its "serving on" line.
export function startServer(db, args = []) {
  const child = spawn(BIN, ['serve', '--listen', '127.0.0.1:0', '--db', db, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  notePid(child.pid);
  const s = { child, stderr: '', url: null, exited: null };
  s.exitPromise = new Promise((res) => child.on('exit', (code, signal) => {
    s.exited = { code, signal };
    res(s.exited);
  }));
  return new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`no "serving on" line within 15 s; stderr: ${s.stderr}`)), 15000);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d) => {
      s.stderr += d;
      const m = /^errata: serving on (http:\/\/127\.0\.0\.1:(\d+))$/m.exec(s.stderr);
      if (m && !s.url) {
        s.url = m[1];
        clearTimeout(timer);
        res(s);
      }
    });
    s.exitPromise.then((e) => {
      clearTimeout(timer);
      rej(new Error(`server exited (${e.code}, ${e.signal}) before serving; stderr: ${s.stderr}`));
    });
  });
}

// SIGTERM, then SIGKILL after 10 s; resolves with the exit {code, signal}.
export async function stopServer(s) {
  if (!s || s.exited) return s?.exited;
  s.child.kill('SIGTERM');
  const timer = setTimeout(() => s.child.kill('SIGKILL'), 10000);
  const e = await s.exitPromise;
  clearTimeout(timer);
  return e;
}
