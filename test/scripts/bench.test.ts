// scripts/bench.ts: every section is listed in one place, and a name that is not one fails the run.
import { SECTIONS, selectSections } from '../../scripts/bench';

describe('npm run bench sections', () => {
  it('runs every listed section when none is named', () => {
    expect(selectSections([]).map(([name]) => name)).toEqual(Object.keys(SECTIONS));
  });

  it('runs only the named sections', () => {
    expect(selectSections(['register', 'events']).map(([name]) => name)).toEqual(['events', 'register']);
  });

  it('fails on a section name that does not exist instead of running nothing', () => {
    expect(() => selectSections(['evnets'])).toThrow(`unknown benchmark section evnets (sections: ${Object.keys(SECTIONS).join(', ')})`);
  });
});
