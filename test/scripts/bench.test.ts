// scripts/bench.ts: every section is listed in one place, and a name that is not one fails the run.
import { SECTIONS, parseBenchArgs, selectSections } from '../../scripts/bench';

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

describe('npm run bench arguments', () => {
  it('takes --extra-users N among the section names, and EXTRA_USERS when it is absent', () => {
    expect(parseBenchArgs(['bounded', '--extra-users', '10000', 'subscriptions'], undefined)).toEqual({
      names: ['bounded', 'subscriptions'],
      extraUsers: 10000,
    });
    expect(parseBenchArgs(['bounded'], '500')).toEqual({ names: ['bounded'], extraUsers: 500 });
    expect(parseBenchArgs([], undefined)).toEqual({ names: [], extraUsers: 0 });
  });

  it('refuses an --extra-users that is not a whole number', () => {
    expect(() => parseBenchArgs(['--extra-users', 'many'], undefined)).toThrow('--extra-users takes a whole number');
  });
});
