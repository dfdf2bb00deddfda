// The collider list's temperature field: what it shows of a collider and what an edit asks of the server.
import { describe, it, expect } from 'vitest';
import { shownTemperature, temperatureChange } from '../src/ui/collider_list.js';

describe('collider temperature field', () => {
  it('shows the temperature of a heater or a cold plate, nothing for an insulating collider', () => {
    expect(shownTemperature({ temperature: 350, heat_transfer: 1000 })).toBe('350');
    expect(shownTemperature({ temperature: 293.15, heat_transfer: 0 })).toBe('');
    expect(shownTemperature({})).toBe('');
  });

  it('asks for a temperature, insulation for an empty field, and refuses what is no temperature', () => {
    expect(temperatureChange('360')).toEqual({ changes: { temperature: 360 } });
    expect(temperatureChange('  ')).toEqual({ changes: { heat_transfer: 0 } });
    expect(temperatureChange('hot').error).toMatch(/Temperature/);
    expect(temperatureChange('0').error).toMatch(/1/);
    expect(temperatureChange('9000').error).toMatch(/5000/);
  });
});
