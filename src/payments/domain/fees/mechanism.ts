// Clearing channel of a quote: named by `usedMechanism` (body) or the Used-Mechanism header, either as a
// channel code or as a well-known payment system; otherwise derived from the banks and the priority.
import type { Channel, Priority, Scope } from './schedule.js';

const SYSTEMS: Record<string, Channel> = {
  RTGS: 'RTGS',
  FEDWIRE: 'RTGS',
  WIRE: 'RTGS',
  CHAPS: 'RTGS',
  TARGET2: 'RTGS',
  T2: 'RTGS',
  SWIFT: 'RTGS',
  CHIPS: 'RTGS',
  SIC: 'RTGS',
  EURO1: 'RTGS',
  RTNS: 'RTNS',
  INSTANT: 'RTNS',
  SCT_INST: 'RTNS',
  SEPA_INST: 'RTNS',
  RTP: 'RTNS',
  FEDNOW: 'RTNS',
  FPS: 'RTNS',
  TIPS: 'RTNS',
  RT1: 'RTNS',
  MPNS: 'MPNS',
  ACH: 'MPNS',
  FEDACH: 'MPNS',
  NACHA: 'MPNS',
  SEPA: 'MPNS',
  SCT: 'MPNS',
  BACS: 'MPNS',
  STEP2: 'MPNS',
  BOOK: 'BOOK',
  INTERNAL: 'BOOK',
  ON_US: 'BOOK',
};

export const KNOWN_MECHANISMS: readonly string[] = Object.keys(SYSTEMS);

/** The channel a mechanism name stands for; undefined when unknown. */
export function channelOfMechanism(mechanism: string): Channel | undefined {
  return SYSTEMS[
    mechanism
      .trim()
      .toUpperCase()
      .replace(/[\s-]+/g, '_')
  ];
}

/** Same bank → BOOK; cross-border or urgent → RTGS; otherwise the mass-payment system. */
export function defaultChannel(sameBank: boolean, scope: Scope, priority: Priority): Channel {
  if (sameBank) return 'BOOK';
  if (scope === 'CROSS_BORDER' || priority === 'HIGH') return 'RTGS';
  return 'MPNS';
}
