// ESLint 9 flat config. Type-aware: every linted file belongs to a TypeScript program (tsconfig.json covers every
// .ts/.tsx file; the root .mjs config files use typescript-eslint's default project). Prettier formats; the
// formatting rules are off (eslint-config-prettier, last).
import js from "@eslint/js";
import nextPlugin from "@next/eslint-plugin-next";
import prettier from "eslint-config-prettier/flat";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import { defineConfig, globalIgnores } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

export default defineConfig(
  globalIgnores([
    ".next/",
    "data/",
    "test-results/",
    "playwright-report/",
    "bench/results/",
    "bench/next-constant/", // a separate stock Next app, the benchmark's baseline
    "lib/generated/", // the Prisma clients, written by `prisma generate`
    "dist/", // the compiled server and tools, written by scripts/build-server.mjs
    "next-env.d.ts",
  ]),
  {
    linterOptions: { reportUnusedDisableDirectives: "error", reportUnusedInlineConfigs: "error" },
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ["*.mjs", "scripts/*.mjs", "scripts/harness/*.mjs"] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    // The plain-JavaScript tools and configs run under Node: its globals exist there.
    files: ["**/*.mjs"],
    languageOptions: { globals: globals.node },
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  tseslint.configs.stylisticTypeChecked,
  reactHooks.configs.flat.recommended,
  nextPlugin.configs.recommended,
  nextPlugin.configs["core-web-vitals"],
  jsxA11y.flatConfigs.recommended,
  {
    rules: {
      // node:test's test() and describe() return promises that the runner itself awaits.
      "@typescript-eslint/no-floating-promises": [
        "error",
        {
          allowForKnownSafeCalls: [
            { from: "package", package: "node:test", name: ["describe", "it", "suite", "test"] },
          ],
        },
      ],
      // Async event handlers (onClick, onSubmit) are fine when they handle their own errors, as ours do.
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
      // `async` marks a Promise-returning implementation and turns a throw into a rejection: not a mistake.
      "@typescript-eslint/require-await": "off",
      // The code base writes object types as type aliases.
      "@typescript-eslint/consistent-type-definitions": ["error", "type"],
      // `.catch(() => {})` and no-op default callbacks say what they mean.
      "@typescript-eslint/no-empty-function": ["error", { allow: ["arrowFunctions"] }],
      // An empty string (an unset environment variable, a blank header) counts as absent: `||` is meant there.
      "@typescript-eslint/prefer-nullish-coalescing": ["error", { ignorePrimitives: { string: true } }],
      // `const { dropped, ...rest } = value` is how a property is left out.
      "@typescript-eslint/no-unused-vars": ["error", { ignoreRestSiblings: true }],
    },
  },
  {
    // Tests, and the harness that drives servers for them and for the fault and fuzz tools, read untyped
    // JSON off the wire and assert on it: `any` is the honest type there.
    files: ["tests/**", "e2e/**", "scripts/harness/**"],
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-return": "off",
    },
  },
  {
    // Playwright fixtures must destructure their first parameter, and their `use` is not React's hook.
    files: ["e2e/**"],
    rules: {
      "no-empty-pattern": ["error", { allowObjectPatternsAsParameters: true }],
      "react-hooks/rules-of-hooks": "off",
    },
  },
  prettier,
  {
    // Prettier wraps code at 120; this keeps strings and comments within it too (after `prettier`, which turns it off).
    rules: { "max-len": ["error", { code: 120, ignoreUrls: true }] },
  },
);
