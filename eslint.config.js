import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * The import rule of one layer: nothing from the folders of app/ above it (nor the document and
 * entry modules), and, for layers that must run without a request, nothing of the Express entry,
 * React or React Router (redirect and data() are HTTP concerns: they belong in app/http/).
 */
function layerPatterns(folder, { above, belowServerAndReact = false, message }) {
  const ours = String.raw`^(?:(?:\.\./)+|#app/)`;
  const patterns = [{ regex: String.raw`${ours}(?:${above.join("|")})(?:/|\.tsx?$|$)|${ours}(?:root|entry\.server)\.tsx$`, message }];
  if (belowServerAndReact) {
    patterns.push(
      { regex: String.raw`^(?:#server/|(?:\.\./)+server/)`, message: `${folder} must not import the Express entry (server/).` },
      { regex: String.raw`^(?:react|react-dom|react-router)(?:/|$)|^@react-router/`, message: `${folder} uses no React or React Router.` },
    );
  }
  return patterns;
}

function importRule(files, patterns, ignores = []) {
  return { files, ignores, rules: { "no-restricted-imports": ["error", { patterns }] } };
}

const HTTP_LAYER = layerPatterns("app/http", {
  above: ["routes", "components"],
  message: "The HTTP edge is below routes and components: routes call it, not the other way round.",
});
const DOMAIN_LAYER = layerPatterns("app/domain", {
  above: ["http", "routes", "components"],
  belowServerAndReact: true,
  message: "Domain modules are below HTTP, routes and components: return data or throw a typed error; app/http/ maps it to HTTP.",
});

/**
 * The offline storyteller is a feature folder (docs/decisions/047): two modules outside it use it,
 * each through one module of its own — the model factory creates the model (model.server.ts →
 * offline/storyteller.server.ts) and the game page's preview tells an opening with it
 * (preview.server.ts → offline/playthrough.server.ts). Everything else asks the Game Master model.
 */
const OFFLINE_STORYTELLER = String.raw`^(?:#app/domain/game-master/|(?:\.{1,2}/)+(?:[\w.-]+/)*)offline/`;
const OFFLINE_ENTRIES = {
  "app/domain/game-master/model.server.ts": "storyteller.server.ts",
  "app/domain/game-master/preview.server.ts": "playthrough.server.ts",
};
const OFFLINE_REFUSED = {
  regex: OFFLINE_STORYTELLER,
  message:
    "Only model.server.ts (through offline/storyteller.server.ts) and preview.server.ts (through offline/playthrough.server.ts) import the offline storyteller's folder; elsewhere, use the Game Master model (model.server.ts).",
};
const offlineEntryRules = Object.entries(OFFLINE_ENTRIES).map(([file, module]) =>
  importRule(
    [file],
    [
      ...DOMAIN_LAYER,
      {
        regex: `${OFFLINE_STORYTELLER}(?!${module.replaceAll(".", String.raw`\.`)}$)`,
        message: `${file} imports the offline storyteller through offline/${module} only.`,
      },
    ],
  ),
);

export default tseslint.config(
  { ignores: ["build/", "data/", ".react-router/", "node_modules/", "coverage/", "test-results/"] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true }],
      "@typescript-eslint/no-confusing-void-expression": "off",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
      // React Router's redirects and data() responses are thrown on purpose.
      "@typescript-eslint/only-throw-error": "off",
      "@typescript-eslint/require-await": "off",
      // A file past 400 lines holds more than one idea (issue 32): split it where the ideas part.
      "max-lines": ["error", { max: 400 }],
    },
  },
  {
    // Tests and benchmarks read JSON bodies and regex groups of any shape and assert on them.
    files: ["tests/**/*.ts", "**/*.test.ts", "**/*.test.tsx", "scripts/bench/**/*.ts"],
    rules: {
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-non-null-assertion": "off",
      // A Vitest fixture that needs no other fixture still destructures its first parameter: `({}, { onCleanup })`.
      "no-empty-pattern": ["error", { allowObjectPatternsAsParameters: true }],
    },
  },
  // One-way layers: routes → http → domain → db → lib (app/components are the routes' UI). A
  // layer imports only the layers below it: domain never imports HTTP, routes, components or
  // React; db never imports domain or above; lib imports nothing of ours but lib. Each pattern
  // matches a relative path (../domain/x.ts, ../../domain/x.ts) and the #app alias alike.
  // `import()` expressions are not checked by this rule.
  importRule(["app/http/**"], [...HTTP_LAYER, OFFLINE_REFUSED]),
  importRule(["app/domain/**"], [...DOMAIN_LAYER, OFFLINE_REFUSED]),
  ...offlineEntryRules,
  importRule(
    ["app/db/**"],
    layerPatterns("app/db", {
      above: ["domain", "http", "routes", "components"],
      belowServerAndReact: true,
      message: "The database layer is below domain, HTTP, routes and components: it may import only db, lib and third-party modules.",
    }),
  ),
  {
    // app/lib is flat, so any "../" leaves it.
    files: ["app/lib/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: String.raw`^\.\./|^#(?!app/lib/)`,
              message: "app/lib imports nothing of ours but app/lib (third-party packages are fine).",
            },
          ],
        },
      ],
    },
  },
  {
    // The play screen is a feature folder (docs/decisions/044): the route mounts play-screen.tsx;
    // its state, client and parts stay inside. (No layer above sets this rule for these files.)
    files: ["app/routes/**", "app/components/**", "app/*.tsx"],
    ignores: ["app/components/play/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: String.raw`^(?:#app/components/|\./|(?:\.\./)+(?:components/)?)play/(?!(?:play-screen|local-time|chat-message)\.tsx$)`,
              message: "Import the play screen through app/components/play/play-screen.tsx; its other modules are its own.",
            },
            OFFLINE_REFUSED,
          ],
        },
      ],
    },
  },
  importRule(["scripts/**", "tests/**", "server/**"], [OFFLINE_REFUSED]),
  {
    files: ["**/*.js"],
    ...tseslint.configs.disableTypeChecked,
  },
);
