// Configuration of how the payment service uses its bank directory beyond look-ups: the checks at
// acceptance (refuse or warn, per check) and the guard on `bank-directory import --replace`
// (docs/configuration.md, `payments.directory`; decision: directory checks at acceptance).
import { Type, type Static, type TOptional } from '@sinclair/typebox';

const Mode = Type.Union([Type.Literal('refuse'), Type.Literal('warn'), Type.Literal('off')]);

/** The directory checks at acceptance, each `refuse` (422), `warn` (accepted, reported) or `off`. */
export const DIRECTORY_CHECKS = [
  'routingNumberNotOnRail',
  'settlementOnly',
  'renumbered',
  'routingNumberUnknown',
  'bankCodeDeleted',
  'bankCodeDeletionAnnounced',
  'bankCodeUnknown',
  'bicCountryMismatch',
  'accountCheckDigits',
  'checkMethodUnsupported',
  'leiLapsed',
  'leiInactive',
] as const;
export type DirectoryCheck = (typeof DIRECTORY_CHECKS)[number];

const DEFAULT_MODES: Record<DirectoryCheck, 'refuse' | 'warn' | 'off'> = {
  routingNumberNotOnRail: 'refuse',
  settlementOnly: 'refuse',
  renumbered: 'refuse',
  routingNumberUnknown: 'refuse',
  bankCodeDeleted: 'refuse',
  bankCodeDeletionAnnounced: 'warn',
  bankCodeUnknown: 'refuse',
  bicCountryMismatch: 'refuse',
  accountCheckDigits: 'refuse',
  checkMethodUnsupported: 'warn',
  leiLapsed: 'warn',
  leiInactive: 'refuse',
};

export const DirectorySchema = Type.Object(
  {
    acceptance: Type.Object(
      Object.fromEntries(DIRECTORY_CHECKS.map((check) => [check, Type.Optional(Mode)])) as Record<
        DirectoryCheck,
        TOptional<typeof Mode>
      >,
      {
        additionalProperties: false,
        default: {},
        description:
          'per directory check at acceptance: refuse (422), warn (accepted; reported in statusReasons) or off',
      },
    ),
    replaceMaxRemovedPercent: Type.Number({
      minimum: 0,
      maximum: 100,
      default: 10,
      description:
        'bank-directory import --replace refuses (without --force) to remove more than this share of a source',
    }),
  },
  { additionalProperties: false, default: {} },
);

/** Spread into PaymentsSchema's properties: `...PaymentsDirectoryProperties`. */
export const PaymentsDirectoryProperties = { directory: DirectorySchema };

export type DirectoryConfig = Static<typeof DirectorySchema>;
export type DirectoryModes = Readonly<Record<DirectoryCheck, 'refuse' | 'warn' | 'off'>>;

/** Every check's mode: the configured one, else its default. */
export function directoryModes(config: {
  readonly acceptance: Readonly<Partial<Record<DirectoryCheck, 'refuse' | 'warn' | 'off'>>>;
}): DirectoryModes {
  return Object.fromEntries(
    DIRECTORY_CHECKS.map((c) => [c, config.acceptance[c] ?? DEFAULT_MODES[c]]),
  ) as DirectoryModes;
}
