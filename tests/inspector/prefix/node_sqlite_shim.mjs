// A stand-in for Node 22's `node:sqlite` on older Node, over better-sqlite3, for recording the
// golden files of make_cases.py with Covel's own scripts/prompt-prefix-report.mjs:
//
//   npm install --prefix /tmp/covel better-sqlite3@12
//   COVEL_SHIM_MODULES=/tmp/covel node --import ./tests/inspector/prefix/node_sqlite_shim.mjs \
//       /tmp/covel/prompt-prefix-report.mjs covel.db --json
//
// Loaded with --import, this file registers a resolve hook that maps the specifier
// "node:sqlite" to itself (with "?db"), where it exports DatabaseSync. Only what the report
// uses is provided: new DatabaseSync(path, { readOnly }), prepare(sql).all(...params), close().
//
// Column values are the ones node:sqlite gives (its ColumnToValue), not better-sqlite3's own:
//   NULL -> null; REAL -> number; TEXT -> string (invalid UTF-8 -> U+FFFD, as V8 decodes it;
//   NUL kept); BLOB -> a plain Uint8Array (better-sqlite3 gives a Buffer, whose String() and
//   JSON.stringify differ); INTEGER -> number when |v| <= 2^53 - 1, otherwise a RangeError
//   ERR_OUT_OF_RANGE "Value is too large to be represented as a JavaScript number: <v>"
//   (better-sqlite3 would round silently). Rows are null-prototype objects, as in node:sqlite.
import { register, createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import path from "node:path";

const here = new URL(import.meta.url);
const role = here.search;

export async function resolve(specifier, context, nextResolve) {
  if (specifier === "node:sqlite") {
    const target = new URL(import.meta.url);
    target.search = "?db";
    return { url: target.href, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

if (role === "") {
  const hooks = new URL(import.meta.url);
  hooks.search = "?hooks";
  register(hooks.href);
}

const MAX_SAFE = 2n ** 53n - 1n;

function jsValue(value) {
  if (typeof value === "bigint") {
    if (value > MAX_SAFE || value < -MAX_SAFE) {
      const error = new RangeError(`Value is too large to be represented as a JavaScript number: ${value}`);
      error.code = "ERR_OUT_OF_RANGE";
      throw error;
    }
    return Number(value);
  }
  if (value instanceof Uint8Array) return new Uint8Array(value);
  return value;
}

function loadBetterSqlite3() {
  const base = process.env.COVEL_SHIM_MODULES || process.cwd();
  const require = createRequire(pathToFileURL(path.join(base, "noop.js")));
  return require("better-sqlite3");
}

export class DatabaseSync {
  constructor(location, options = {}) {
    const Database = loadBetterSqlite3();
    this.db = new Database(location, { readonly: Boolean(options.readOnly), fileMustExist: true });
  }

  prepare(sql) {
    const statement = this.db.prepare(sql);
    statement.safeIntegers(true);
    return {
      all: (...params) =>
        statement.all(...params).map((row) => {
          const out = Object.create(null);
          for (const [key, value] of Object.entries(row)) out[key] = jsValue(value);
          return out;
        }),
    };
  }

  close() {
    this.db.close();
  }
}
