import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["**/node_modules/**", "**/dist/**", "data/**", "web/dist/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  { files: ["web/**/*.{ts,tsx}"], languageOptions: { globals: { ...globals.browser } } },
  // Browser tests run in Node and drive the page through Playwright.
  { files: ["web/e2e/**/*.ts"], languageOptions: { globals: { ...globals.node, ...globals.browser } } },
);
