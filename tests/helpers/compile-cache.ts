import { tmpdir } from "node:os";
import path from "node:path";

/**
 * Imported by the Vitest configs, before any worker is forked: test workers inherit the variable
 * and keep V8's code for the packages they load on disk, as the servers they start do
 * (server/main.ts). Loading the same modules is a large share of a short test file's CPU.
 */
process.env.NODE_COMPILE_CACHE ??= path.join(tmpdir(), "node-compile-cache");
