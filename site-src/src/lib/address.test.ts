// Each country's address fields: the UK a postcode and a county, the US a ZIP code and a state.
import { describe, expect, it } from 'vitest';
import { addressLabels } from './address';

describe('addressLabels', () => {
  it('the UK: Postcode, and County (optional)', () => {
    expect(addressLabels('GB')).toEqual({ region: { label: 'County', required: false, message: '' }, postal: { label: 'Postcode', message: 'Please enter a postcode' } });
  });

  it('the US: ZIP code, and State (required)', () => {
    expect(addressLabels('US')).toEqual({ region: { label: 'State', required: true, message: 'Please enter a state' }, postal: { label: 'ZIP code', message: 'Please enter a ZIP code' } });
  });

  it('elsewhere (Ireland, Germany, Jersey): a postcode and nothing else', () => {
    for (const code of ['IE', 'DE', 'JE']) expect(addressLabels(code)).toEqual({ region: null, postal: { label: 'Postcode', message: 'Please enter a postcode' } });
  });
});
