// Lint rules that catch real defects; formatting is Prettier's job (see .prettierrc.json).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'coverage/', '.bench-tmp/', 'test/fixtures/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,mts,mjs,js}'],
    languageOptions: { globals: { ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // Control bytes in regexes are the point of the sanitizer and the key decoder.
      'no-control-regex': 'off',
      // `let x = fallback; try { x = read() } catch {}` is the house idiom for reads that may fail.
      'no-useless-assignment': 'off',
    },
  },
  {
    // Tests and type shims handle JSON written by OMC's own readers, whose shape is the thing under test.
    files: ['test/**', 'bench/**', '**/*.d.mts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
