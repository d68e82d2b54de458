import { panChangeRequest, taxApi } from '../../../contract/tax.ts';
import { defineMovement } from '../../lib/money/movement.ts';
import { applyPanChange } from './pan.service.ts';

/** Tax's movement (docs/structure.md, "A money movement"): a PAN decides the rate of TDS a member pays. */
export const panChange = defineMovement({
  kind: 'pan_change',
  permission: taxApi.setPan.access,
  input: panChangeRequest,
  fourEyes: { holds: 'always', rule: 'A PAN always waits; written only if the member still has the PAN they had when it was filed' },
  execute: (tx, money, request) => applyPanChange(tx, money, request),
});
