import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// React Testing Library cleans up after each test only when globals are on; do it here.
afterEach(() => {
  cleanup();
  localStorage.clear();
});
