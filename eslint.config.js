import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { node22PackagesInstalled, node22Projects } from './scripts/node22-files.mjs';

// The files that import packages needing Node 22 are type-checked by the
// tsconfig.node22.json projects, which build only where those packages are
// installed (the Node 24 tree, scripts/compat-otel3.sh); elsewhere they are
// left to that run (docs/decisions/0030-demo-dependencies-and-node22-packages.md).
const node22 = node22Projects();
const node22Files = node22.flatMap((p) => p.files);
const node22Config = node22PackagesInstalled()
  ? {
      files: node22Files,
      languageOptions: {
        parserOptions: {
          projectService: false,
          project: node22.map((p) => p.project),
          tsconfigRootDir: import.meta.dirname,
        },
      },
    }
  : { ignores: node22Files };

export default tseslint.config(
  { ignores: ['**/build/**', '**/node_modules/**', '.cache/**', 'deploy/**/*.json'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  node22Config,
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    files: ['**/test/**/*.ts'],
    rules: {
      // chai's property assertions (`expect(x).to.be.true`) are expressions by design.
      '@typescript-eslint/no-unused-expressions': 'off',
    },
  },
);
