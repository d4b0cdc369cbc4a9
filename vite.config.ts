import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { firstLoadChunk, lucideIconImports } from "./vite.first-load.ts";

export default defineConfig({
  environments: {
    client: {
      build: { rolldownOptions: { output: { codeSplitting: { groups: [{ name: firstLoadChunk }] } } } },
    },
    ssr: {
      // Bundled, not imported from node_modules: Node's ES module loader re-reads drizzle-orm's
      // 180 KB package.json for each of its files it loads (~130 MB of heap and ~400 ms at start),
      // and better-auth's adapter would load drizzle-orm from node_modules again.
      resolve: { noExternal: ["drizzle-orm", "@better-auth/drizzle-adapter", "better-auth"] },
      build: {
        rollupOptions: {
          input: "./server/app.ts",
          // The server loads every module at start: lazy imports (the admin's preview renderer)
          // split code for browsers only, so rolldown's note that they do not split here is noise.
          checks: { ineffectiveDynamicImport: false },
        },
      },
    },
  },
  plugins: [tailwindcss(), reactRouter(), lucideIconImports()],
});
