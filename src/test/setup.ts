import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { forgetKeptAnswers } from '../state/kept-answer';

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(cleanup);
// Forms keep what was typed for the page's session (state/kept.ts): each test starts a new page.
// (electron/'s tests run in node, with no window.)
afterEach(() => {
  if (typeof window !== 'undefined') window.sessionStorage.clear();
  forgetKeptAnswers();
});
