import { expect, it } from 'vitest';
import { answerGranularity } from '../../src/engine/granularity.js';
import type { ScoredCandidate } from '../../src/engine/types.js';

const candidate = (interpolated?: true): ScoredCandidate => ({
  provider: 'local',
  components: { street: 'Polní', houseNumber: '6' },
  precision: 'address',
  confidence: 90,
  componentVerdicts: {},
  reading: {},
  ...(interpolated ? { interpolated } : {}),
});

/** Issue 30 item 4: a house placed on an interpolation way has coordinates between known numbers, not its own. */
it('reads coordinates placed between known house numbers as interpolated, a mapped house as house', () => {
  expect(answerGranularity({ street: 'Polní', houseNumber: '6' }, candidate(true), { street: 'match', houseNumber: 'match' })).toEqual({
    input: 'house',
    validated: 'house',
    geocode: 'interpolated',
  });
  expect(answerGranularity({ street: 'Polní', houseNumber: '6' }, candidate(), {}).geocode).toBe('house');
});
