import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MIGRATIONS_FOLDER, readFunctionFiles } from "./migrate.server.ts";
import migrationJournal from "./migrations/meta/_journal.json" with { type: "json" };

/**
 * The rules of app/db/functions/ (app/db/migrate.server.ts) that no database is needed to check.
 * The database tests (tests/integration/sql-functions.test.ts) check that the files are what
 * every database ends with.
 */

/** Migrations from here on were written with the function files: they may only drop functions. */
const FIRST_MIGRATION_AFTER_FUNCTION_FILES = 18;

const files = readFunctionFiles();
const names = files.map(({ name }) => name);
const withoutComments = (text: string) => text.replaceAll(/--.*$/gm, "");
/** The functions of the files a SQL text calls or names. */
const functionsNamedIn = (text: string) => names.filter((name) => new RegExp(`\\b${name}\\s*\\(`).test(withoutComments(text)));

describe("the SQL function files", () => {
  it("each define one function, named as the file, with CREATE OR REPLACE", () => {
    expect(files.length).toBeGreaterThan(0);
    for (const { name, sql } of files) {
      const created = [...withoutComments(sql).matchAll(/\bCREATE\s+(OR\s+REPLACE\s+)?FUNCTION\s+(\w+)/gi)];
      expect(
        created.map((match) => [Boolean(match[1]), match[2]]),
        name,
      ).toEqual([[true, name]]);
    }
  });

  it("are applied with each function that a LANGUAGE sql body calls before it", () => {
    for (const { name, sql } of files.filter((file) => /LANGUAGE\s+sql\b/i.test(file.sql))) {
      for (const callee of functionsNamedIn(sql.slice(sql.indexOf("$$"))).filter((callee) => callee !== name)) {
        expect(callee < name, `${name} calls ${callee}, which is applied after it`).toBe(true);
      }
    }
  });

  it("are not called or written by the migrations that came with them, which may only drop a function", () => {
    const later = migrationJournal.entries.slice(FIRST_MIGRATION_AFTER_FUNCTION_FILES);
    for (const { tag } of later) {
      const statements = readFileSync(path.join(MIGRATIONS_FOLDER, `${tag}.sql`), "utf8").split("--> statement-breakpoint");
      for (const statement of statements) {
        if (/^\s*DROP\s+FUNCTION\b/i.test(withoutComments(statement))) continue;
        expect(withoutComments(statement), tag).not.toMatch(/\bFUNCTION\b/i);
        expect(functionsNamedIn(statement), tag).toEqual([]);
      }
    }
  });
});
