// GENERATED FILE — do not edit. Generated from src/payments/openapi/payment-order.yaml by
// scripts/generate-payment-order-types.mjs (npm run generate:types) with openapi-typescript; a test fails
// when the YAML changes without regenerating.

export interface paths {
  '/payments': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the caller's payment orders
     * @description Lists the payment orders of the signed-in user, newest first, one page at a time.
     *     Optionally filter by `status`. Returns `items` (payment records) and `nextCursor`; pass
     *     `nextCursor` as `cursor` to get the next page, `null` means there are no more pages.
     *     Use getPayment when you already know the payment's reference.
     */
    get: operations['listPayments'];
    put?: never;
    /**
     * Create a payment order
     * @description Creates a new payment order on behalf of the signed-in user and returns the stored payment
     *     record, including the generated `paymentInstructionReference.identification` (use it as
     *     `externalReferenceNo` in later calls) and the initial `status` (INITIATED, or SCHEDULED when a
     *     schedule is given). The body must name the payer account, the payee account and the amount
     *     (`paymentInstruction.amount.instructedAmount` and `instructedCurrency`). The payer account must
     *     be one of the signed-in user's own accounts (getMyAccountBalance lists them); any other is
     *     refused (PAYER_ACCOUNT_NOT_OWNED, ISO 20022 BE01).
     *     Use validatePayment first if you only want to check an instruction without creating it.
     *     Send an `Idempotent-Request-Key` so that a retried call does not create a second payment.
     *     Without one, a recent identical order gets 409 `POSSIBLE_DUPLICATE` (see `Confirm-Duplicate`).
     *     A closing-day execution date moves to a business day (`customFields.executionDateAdjustment`).
     */
    post: operations['createPayment'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/payments/{externalReferenceNo}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description Reference of the payment order: the `paymentInstructionReference.identification` returned by
         *     createPayment (or shown by listPayments). 1 to 64 letters, digits, dots, underscores or hyphens.
         */
        externalReferenceNo: components['parameters']['ExternalReferenceNo'];
      };
      cookie?: never;
    };
    /**
     * Get one payment order
     * @description Returns the current payment record for `externalReferenceNo`, including its status
     *     (`paymentInstructionReference.status`). The `ETag` (response header; the `ETag:` line of a tool
     *     result) carries the record's version; send it as `If-Match` to updatePayment to avoid overwriting a
     *     concurrent change.
     *     Answers 404 when no payment with that reference belongs to the caller.
     */
    get: operations['getPayment'];
    /**
     * Update a payment order
     * @description Replaces an existing payment order with the record in the body and returns the updated payment
     *     record with its new `ETag`. The body is the whole record, not a patch: send everything the
     *     payment keeps (payer and payee accounts, payee party, amount and currency …), for example the
     *     record from getPayment with your changes; an incomplete record is refused with 422 naming what
     *     is missing. Server-set fields sent back (`status`, `reason`, `usedMechanism`, the payment's own
     *     `identification`) are ignored. The status stays as it is unless the change requires another
     *     (a new execution date or schedule can move INITIATED to SCHEDULED and back).
     *     Only payments that have not yet been executed can be changed; otherwise the call answers 409. Send the `ETag` from getPayment as `If-Match` to make sure you update the version
     *     you looked at (412 when it changed meanwhile). Answers 404 for an unknown reference.
     */
    put: operations['updatePayment'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/payments/{externalReferenceNo}/cancel': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description Reference of the payment order: the `paymentInstructionReference.identification` returned by
         *     createPayment (or shown by listPayments). 1 to 64 letters, digits, dots, underscores or hyphens.
         */
        externalReferenceNo: components['parameters']['ExternalReferenceNo'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Cancel a payment order (irreversible)
     * @description Cancels a payment order, or upcoming instances of a scheduled one, and returns a
     *     cancellation result. `cancellationType` chooses what is cancelled: SINGLE_PAYMENT_INSTANCE
     *     (default: the payment, or the next instance of a schedule), MULTIPLE_PAYMENT_INSTANCE (the next
     *     `noOfInstances` instances) or COMPLETE_SCHEDULE. A cancellation cannot be undone.
     *     When the bank refuses (for example because the payment is already completed) the answer is
     *     still HTTP 200 with `status` "failure" plus `reasonCode` and `reasonDescription`; read the
     *     body, not just the HTTP status. Answers 404 for an unknown reference.
     */
    post: operations['cancelPayment'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/payments/{externalReferenceNo}/history': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description Reference of the payment order: the `paymentInstructionReference.identification` returned by
         *     createPayment (or shown by listPayments). 1 to 64 letters, digits, dots, underscores or hyphens.
         */
        externalReferenceNo: components['parameters']['ExternalReferenceNo'];
      };
      cookie?: never;
    };
    /**
     * Get the change history of a payment order
     * @description Lists every change of the payment order `externalReferenceNo`, newest first, one page at a time:
     *     its creation, each update (with the changed fields: JSON pointer, value before and after),
     *     each cancellation (of the payment, of schedule instances or of the whole schedule) and each
     *     status change by the bank. Every entry names who made the change (`actor`: `user:<id>` for the
     *     owner, `operator:…` for the bank's clearing side), when (`at`), why (`reason`) and the payment
     *     version it produced (`version`, as in the `ETag` "v<version>"). Returns `items` and
     *     `nextCursor`; pass `nextCursor` as `cursor` for older entries, `null` means there are no more.
     *     Answers 404 when no payment with that reference belongs to the caller.
     */
    get: operations['getPaymentHistory'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/payments/validate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Validate a payment instruction without creating it
     * @description Checks a payment instruction (accounts, amounts and currencies, dates, schedule, codes)
     *     without storing or executing anything, and returns the submitted record with
     *     `paymentInstructionReference.status` and `paymentInstructionReference.reason` filled in:
     *     INITIATED or SCHEDULED means the instruction would be accepted; FAILED that it would not, with
     *     `reason` giving the ISO 20022 reason code of the first problem and `statusReasons` listing every
     *     problem at once, each with the JSON pointer of the field, a stable code, its ISO 20022 reason
     *     code and a message. createPayment applies the same rules. Use it before createPayment to check an
     *     instruction. No sign-in needed; when signed in, the payer account (one of the user's own) and its
     *     available balance (in the account's currency) are checked too; without sign-in a valid
     *     instruction answers status null, reason ACTC (technically valid only).
     */
    post: operations['validatePayment'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/payments/fetch-fees': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Quote the fees of a prospective payment
     * @description Computes the fees the bank would charge for a payment described by the body (amount,
     *     currency, accounts, charge bearer, priority, mechanism) without creating it: `appliedFee`
     *     (amount, currency, type per fee) and `dates` (REQUESTED_EXECUTION_DATE, VALUE_DATE,
     *     CUT_OFF_TIME …) on the rail's own clock and holidays (US rails New York, TARGET2 and SEPA
     *     Frankfurt, UK rails London). Works without sign-in; a signed-in user gets their tariff.
     *     `customFields.feeQuote.lines` explains each fee: its rule, method and any minimum, maximum,
     *     band or surcharge applied. A different `amount.transferCurrency` is converted at the bank's
     *     configured rate (`customFields.feeQuote.exchange`); without a rate for the pair: 422
     *     EXCHANGE_RATE_UNAVAILABLE.
     */
    post: operations['fetchPaymentFees'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/payments/fetch-bank-details': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Look up a bank by routing number, IBAN, SWIFT/BIC or other code
     * @description Finds a bank (financial institution) in the bank directory from an identification number and
     *     its type (ROUTING_NUMBER, IBAN, SWIFT_CODE, BANK_BRANCH_CODE, BBAN or OTHERS), optionally
     *     narrowed by `bankName`, `branchCode` and `country`. Returns the bank's name, codes, BIC,
     *     address, supported networks and transfer types, and whether it is ACTIVE.
     *     Answers 404 when no bank matches. Use it to check a payee's bank before paying.
     */
    post: operations['fetchBankDetails'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    /** @description Identifier, ISO 20022 Max35Text. */
    Identifier: string;
    /** @description Name, ISO 20022 Max140Text. */
    Name: string;
    /**
     * @description ISO 4217 alphabetic currency code.
     * @example EUR
     */
    CurrencyCode: string;
    /**
     * @description ISO 3166-1 alpha-2 country code.
     * @example DE
     */
    CountryCode: string;
    /** @description A strictly positive amount in the unit of its currency (not in minor units). */
    PositiveAmount: number;
    /**
     * Format: date-time
     * @description RFC 3339 date-time with a time-zone offset.
     */
    DateTime: string;
    /** @description Free-form map of extra values, at most 50 entries, keys of 1 to 64 characters. */
    CustomFields: {
      [key: string]: unknown;
    };
    /**
     * @description ISO 20022 bank transaction / payment type code.
     * @enum {string}
     */
    TransactionCode:
      | 'CSH'
      | 'DPS'
      | 'DPH'
      | 'DPP'
      | 'CBS'
      | 'CBP'
      | 'CBH'
      | 'TCS'
      | 'TCH'
      | 'TCP'
      | 'COR'
      | 'FEX'
      | 'EQA'
      | 'LOA'
      | 'LOR'
      | 'SEC'
      | 'LBX'
      | 'DIV'
      | 'CSQ'
      | 'OCQ'
      | 'ODC'
      | 'CCQ'
      | 'TCK'
      | 'BKD'
      | 'CLR'
      | 'DCR'
      | 'BOE'
      | 'COL'
      | 'CMT'
      | 'CSW'
      | 'CTO'
      | 'CZB'
      | 'STF'
      | 'PAY'
      | 'PRI'
      | 'STD'
      | 'LIQ'
      | 'ADV'
      | 'VDA'
      | 'DPG'
      | 'DPN'
      | 'NET'
      | 'LMT'
      | 'BCK'
      | 'EXP'
      | 'CTR'
      | 'CLS'
      | 'EUP'
      | 'AGT'
      | 'AMY'
      | 'BAL'
      | 'BON'
      | 'BRF'
      | 'CBF'
      | 'CHR'
      | 'BEC'
      | 'COC'
      | 'COM'
      | 'CDT'
      | 'COS'
      | 'CPY'
      | 'GVT'
      | 'IHP'
      | 'INS'
      | 'INC'
      | 'INT'
      | 'LCF'
      | 'MET'
      | 'PEN'
      | 'GDS'
      | 'REF'
      | 'REN'
      | 'ROY'
      | 'SCV'
      | 'SAL'
      | 'SSB'
      | 'STO'
      | 'SBS'
      | 'TRP'
      | 'BEN'
      | 'VAT'
      | 'WHT'
      | 'TAX'
      | 'MSC'
      | 'OND'
      | 'MGL'
      | 'OTHR'
      | 'UFRO'
      | 'UWIN'
      | 'PEXH';
    /**
     * @description Status of a payment instruction.
     * @enum {string}
     */
    PaymentStatusValue:
      | 'INITIATED'
      | 'CANCELLED'
      | 'CONFIRMED'
      | 'SUSPENDED'
      | 'PENDING'
      | 'COMPLETED'
      | 'RETURNED'
      | 'FAILED'
      | 'SCHEDULED';
    /**
     * @description Status of a payment instruction; null when not (yet) known.
     * @enum {string|null}
     */
    PaymentStatus:
      | 'INITIATED'
      | 'CANCELLED'
      | 'CONFIRMED'
      | 'SUSPENDED'
      | 'PENDING'
      | 'COMPLETED'
      | 'RETURNED'
      | 'FAILED'
      | 'SCHEDULED'
      | null;
    /**
     * @description Who bears the charges. DEBT debtor, CRED creditor, SHAR shared, SLEV following the service level.
     * @enum {string}
     */
    ChargeBearer: 'DEBT' | 'CRED' | 'SHAR' | 'SLEV';
    /**
     * @description Processing priority.
     * @enum {string}
     */
    Priority: 'NORM' | 'HIGH';
    /** @enum {string} */
    PersonIdType:
      | 'ALIEN_REGISTRATION_NUMBER'
      | 'CUSTOMER_IDENTIFICATION_NUMBER'
      | 'EMPLOYEE_IDENTIFICATION_NUMBER'
      | 'NATIONAL_IDENTITY_NUMBER'
      | 'TAX_IDENTIFICATION_NUMBER'
      | 'SOCIAL_SECURITY_NUMBER'
      | 'DRIVERS_LICENSE_NUMBER'
      | 'PASSPORT_NUMBER'
      | 'IDENTITY_CARD_NUMBER'
      | 'EMPLOYER_IDENTIFICATION_NUMBER';
    /** @enum {string} */
    OrganisationIdType:
      | 'LEI'
      | 'ELF'
      | 'MICX'
      | 'BICFI'
      | 'DUNS'
      | 'BANK_PARTY_IDENTIFICATION'
      | 'CENTRAL_BANK_IDENTIFICATION_NUMBER'
      | 'CLEARING_IDENTIFICATION_NUMBER'
      | 'CERTIFICATE_OF_INCORPORATION_NUMBER'
      | 'COUNTRY_IDENTIFICATION_CODE'
      | 'CUSTOMER_NUMBER'
      | 'DATA_UNIVERSAL_NUMBERING_SYSTEM'
      | 'EMPLOYER_IDENTIFICATION_NUMBER'
      | 'GS1_GLN_IDENTIFIER'
      | 'SIREN'
      | 'SIRET'
      | 'TAX_IDENTIFICATION_NUMBER'
      | 'EAN_GLN'
      | 'BANK_BRANCH_CODE';
    /** @description A payment order (body of create, update and validate, and their responses). */
    PaymentRecord: {
      payeeReference?: components['schemas']['PartyReference'];
      payerReference?: components['schemas']['PartyReference'];
      payerBankReference?: components['schemas']['PartyReference'];
      payeeBankReference?: components['schemas']['PartyReference'];
      payerAccountReference?: components['schemas']['AccountReference'];
      payeeAccountReference?: components['schemas']['AccountReference'];
      /** @description Further parties involved in the payment (ultimate debtor, intermediary agent …). */
      interestedParties?: components['schemas']['InvolvedParty'][];
      paymentInstruction?: components['schemas']['PaymentInstruction'];
      paymentProcessingConfiguration?: components['schemas']['PaymentProcessingConfiguration'];
      paymentInstructionReference?: components['schemas']['PaymentInstructionReference'];
      customFields?: components['schemas']['CustomFields'];
    };
    /**
     * @description A payment record as accepted by createPayment: payer account, payee account and the
     *     instructed amount and currency are required.
     */
    PaymentCreateRequest: components['schemas']['PaymentRecord'] & {
      payerAccountReference: {
        paymentInstructionAccount: {
          accountId: unknown;
        };
      };
      payeeAccountReference: {
        paymentInstructionAccount: {
          accountId: unknown;
        };
      };
      paymentInstruction: {
        amount: {
          instructedAmount: unknown;
          instructedCurrency: unknown;
        };
      };
    };
    PartyReference: {
      involvedParty?: components['schemas']['InvolvedParty'];
    };
    /** @description A party (person, organisation or bank) involved in the payment. */
    InvolvedParty: {
      /** @description Reference of the party. */
      reference?: components['schemas']['Identifier'];
      address?: components['schemas']['Address'];
      organisationIdentification?: components['schemas']['OrganisationIdentification'];
      /** @description Name of the party. */
      partyName?: components['schemas']['Name'];
      /** @enum {string} */
      partyType?: 'PERSON' | 'ORGANISATION';
      /**
       * @description Role of the party in the payment. `CORRESPONDEBT_AGNET` (sic) is the correspondent agent, spelled as in the published interface.
       * @enum {string}
       */
      partyInvolvementType?:
        | 'DEBTOR'
        | 'CREDITOR'
        | 'DEBTOR_AGENT'
        | 'CREDITOR_AGENT'
        | 'ULTIMATE_DEBTOR'
        | 'ULTIMATE_CREDITOR'
        | 'INITIATOR'
        | 'INTERMEDIARY_AGENT'
        | 'CORRESPONDEBT_AGNET';
      /** @description Identity documents of a person, used for identity verification (KYC). */
      personIdentifications?: components['schemas']['PersonIdentification'][];
    };
    OrganisationIdentification: {
      identificationNo?: components['schemas']['Identifier'];
      type?: components['schemas']['OrganisationIdType'];
    };
    PersonIdentification: {
      id?: components['schemas']['Identifier'];
      type?: components['schemas']['PersonIdType'];
    };
    /** @description Postal address. `phoneNumber` is only present in a bank address returned by fetchBankDetails. */
    Address: {
      /** @enum {string} */
      type?: 'POSTAL' | 'POBOX' | 'RESIDENTIAL' | 'PERMANENT' | 'TEMPORARY' | 'BUSINESS';
      /** @description Whether this is the primary postal address. */
      primary?: boolean;
      department?: string;
      subDepartment?: string;
      /** @description Free-format address text. */
      addressLine?: string;
      buildingNumber?: string;
      streetName?: string;
      townName?: string;
      postalCode?: string;
      /** @description State, region or county. */
      countrySubDivision?: string;
      country?: components['schemas']['CountryCode'];
      phoneNumber?: string;
    };
    AccountReference: {
      paymentInstructionAccount?: components['schemas']['PaymentInstructionAccount'];
    };
    PaymentInstructionAccount: {
      /** @description Identification of the account, for example an IBAN. */
      accountId?: string;
      /** @description Kind of identifier held in `accountId`, for example IBAN, BBAN or ACCOUNT_NUMBER. */
      numberType?: components['schemas']['Identifier'];
      /** @enum {string} */
      accountType?: 'LOAN' | 'DEPOSIT';
      /** @enum {string} */
      accountSubType?:
        | 'CURRENT_ACCOUNT'
        | 'FIXED_DEPOSIT'
        | 'SAVINGS_PLAN'
        | 'DEBIT_ACCOUNT'
        | 'CREDIT_ACCOUNT'
        | 'PAYMENT_ACCOUNT'
        | 'SETTLEMENT_ACCOUNT'
        | 'SAVINGS_ACCOUNT';
      /** @enum {string} */
      involvedAccountType?: 'DEBTOR' | 'CREDITOR' | 'DEBTOR_AGENT' | 'CREDITOR_AGENT';
    };
    PaymentInstruction: {
      chargeBearer?: components['schemas']['ChargeBearer'];
      amount?: components['schemas']['Amount'];
      paymentDates?: components['schemas']['PaymentDates'];
      instructionNextAgent?: components['schemas']['Identifier'];
      /** @enum {string} */
      clearingChannel?: 'RTGS' | 'RTNS' | 'MPNS' | 'BOOK';
      /** @description Payment system requested for the instruction. */
      requestedMechanism?: components['schemas']['Identifier'];
      processingValidityTime?: components['schemas']['ProcessingValidityTime'];
      priority?: components['schemas']['Priority'];
      schedule?: components['schemas']['Schedule'];
      /** @enum {string} */
      creditDebtIndicator?: 'CREDIT' | 'DEBIT';
      /** @enum {string} */
      directionType?: 'INBOUND' | 'OUTBOUND';
      instructionType?: components['schemas']['TransactionCode'];
      exchangeRate?: components['schemas']['ExchangeRate'];
      appliedFee?: components['schemas']['AppliedFee'][];
    };
    Amount: {
      /** @enum {string} */
      amountType?:
        | 'PRINCIPAL'
        | 'ACTUAL'
        | 'ESTIMATED'
        | 'MAXIMUM'
        | 'DEFAULT'
        | 'REPLACEMENT'
        | 'INCREMENTAL'
        | 'DECREMENTAL'
        | 'RESERVED'
        | 'AVAILABLE'
        | 'USED';
      /** @description Amount to pay, in `instructedCurrency`; strictly positive, at most as many decimals as the currency's minor unit. */
      instructedAmount?: components['schemas']['PositiveAmount'];
      /** @description ISO 4217 code of the instructed amount's currency (its minor unit fixes the allowed decimals). */
      instructedCurrency?: components['schemas']['CurrencyCode'];
      /** @description Amount transferred, in `transferCurrency`; strictly positive. */
      transferAmount?: components['schemas']['PositiveAmount'];
      /** @description Currency of the transferred amount when it differs from the debtor account's currency. */
      transferCurrency?: components['schemas']['CurrencyCode'];
    };
    PaymentDates: {
      requestedExecutionDate?: components['schemas']['DateTime'];
      acceptanceDate?: components['schemas']['DateTime'];
      deliveryDate?: components['schemas']['DateTime'];
      valueDate?: components['schemas']['DateTime'];
      expiryDate?: components['schemas']['DateTime'];
    };
    ProcessingValidityTime: {
      startDateTime?: components['schemas']['DateTime'];
      endDateTime?: components['schemas']['DateTime'];
    };
    /** @description Recurrence of a standing order. Give either `endDate` or `noOfRepetition`, not both. */
    Schedule: {
      /** @description The first transfer happens on the first date computed by the schedule after this. */
      startDate?: components['schemas']['DateTime'];
      /** @enum {string} */
      frequency?: 'ONCE' | 'DAILY' | 'WEEKLY' | 'BIWEEKLY' | 'MONTHLY' | 'QUARTERLY' | 'YEARLY';
      /** @description No transfers after this date-time. */
      endDate?: components['schemas']['DateTime'];
      /** @description Number of transfers to execute. */
      noOfRepetition?: number;
      /** @description Day on which a transfer is executed. */
      executeOn?: components['schemas']['DateTime'];
      /**
       * @description 1 executes every time, 2 every other time.
       * @enum {integer}
       */
      skipInterval?: 1 | 2;
    };
    ExchangeRate: {
      /** @enum {string} */
      rateType?: 'ACTUAL' | 'INDICATIVE' | 'AGREED';
      /** @description Conversion factor. */
      rate?: number;
      /** @description Currency in which the rate is expressed. */
      currency?: components['schemas']['CurrencyCode'];
    };
    AppliedFee: {
      /** @description Fee amount; zero for a waived fee. */
      amount?: number;
      currency?: components['schemas']['CurrencyCode'];
      /** @description Kind of fee, for example TRANSFER_FEE or FX_MARGIN. */
      type?: components['schemas']['Identifier'];
    };
    PaymentProcessingConfiguration: {
      /**
       * @description Community-specific instrument (OPERATOR stands in for an organisation name in four values).
       * @enum {string}
       */
      localInstrument?:
        | 'DIRECT_DEBIT_CONFIRMED_ELECTRONIC_MANDATE'
        | 'DIRECT_DEBIT_PAPER_MANDATE_WITH_PAPER_AUTHORIZATION'
        | 'DIRECT_DEBIT_UNCONFIRMED_ELECTRONIC_MANDATE'
        | 'BATCH_PAYMENTS_ARUBA'
        | 'INSTANT_PAYMENTS_ARUBA'
        | 'CREDIT_TRANSFERS'
        | 'NON_PRE_AUTHORISED_DIRECT_DEBIT_AT'
        | 'PRE_AUTHORISED_DIRECT_DEBIT_AT'
        | 'CASH_PER_POST'
        | 'RETURNED_CREDIT_TRANSFERS'
        | 'TRUNCATED_CREDIT_TRANSFERS'
        | 'DIRECT_DEBITS'
        | 'RETURNED_DIRECT_DEBITS'
        | 'TRUNCATED_CHECKS'
        | 'REVOKED_CREDIT_TRANSFERS'
        | 'REVOKED_DIRECT_DEBITS'
        | 'REVOKED_RETURNED_CREDIT_TRANSFERS'
        | 'REVOKED_RETURNED_DIRECT_DEBITS'
        | 'REVOKED_TRUNCATED_CHECKS'
        | 'REVOKED_TRUNCATED_CREDIT_TRANSFERS'
        | 'CARD_CLEARING'
        | 'NON_PRE_AUTHORISED_DIRECT_DEBIT_DE'
        | 'PRE_AUTHORISED_DIRECT_DEBIT_DE'
        | 'IMAGE_BASED_CHEQUE_COLLECTION'
        | 'PAPERLESS_CHEQUE_COLLECTION'
        | 'BUSINESS_TO_BUSINESS_DIRECT_DEBIT'
        | 'BUSINESS_TO_CUSTOMER_DIRECT_DEBIT'
        | 'ANCILLARY_SYSTEM_TRANSFER_INITIATION'
        | 'BACKUP_PAYMENT'
        | 'MANDATED_PAYMENT'
        | 'SETTLEMENT_BANK_TRANSFER_INITIATION'
        | 'PRE_AUTHORISED_DIRECT_DEBIT_ACCELERATED_CLEARING_2_DAY_ORDINAIRE_NORMAL_CLEARING_4_DAY'
        | 'PRE_AUTHORISED_DIRECT_DEBIT_ORDINAIRE_NORMAL_CLEARING_4_DAY'
        | 'PRE_AUTHORISED_DIRECT_DEBIT_VERIFIED_CLEARING'
        | 'RECOVERED_BILL_OF_EXCHANGE_OR_PROMISSORY_NOTE'
        | 'NON_PRE_AUTHORISED_DIRECT_DEBIT_RIBA'
        | 'PRE_AUTHORISED_REVOCABLE_DIRECT_DEBIT'
        | 'PRE_AUTHORISED_REVOCABLE_URGENT_DIRECT_DEBIT'
        | 'PAYMENTS_VIA_INTERNET_OWNED_BY_OPERATOR'
        | 'INSTANT_CREDIT_TRANSFER_NOT_TIME_CRITICAL'
        | 'INSTANT_CREDIT_TRANSFER_TIME_CRITICAL'
        | 'PAYMENTS_VIA_INTERNET_OWNED_BY_OPERATOR_USING_INSTANT_CREDIT_TRANSFER'
        | 'PAYMENTS_VIA_INTERNET_OWNED_BY_OPERATOR_USING_INSTANT_CREDIT_TRANSFER_NOT_TIME_CRITICAL'
        | 'PAYMENTS_VIA_INTERNET_OWNED_BY_OPERATOR_USING_INSTANT_CREDIT_TRANSFER_TIME_CRITICAL'
        | 'DUTCH_DOMESTIC_BULK_PAYMENT'
        | 'DUTCH_URGENT_PAYMENT'
        | 'PAYMENT_VIA_ACCEPTGIRO_OWNED_BY_OPERATOR'
        | 'PAYMENTS_VIA_STANDAARD_DIGITALE_NOTA'
        | 'INCIDENT_MANAGEMENT_CORRECTION'
        | 'DIRECT_DEBIT_INITIATED_BY_THE_GOVERNMENT_WITH_SPECIAL_CONDITIONS'
        | 'MASS_PAYMENT_BENEFICIARY'
        | 'MASS_PAYMENT_OURS'
        | 'MASS_PAYMENT_SHARED'
        | 'STANDING_ORDER'
        | 'ONE_OFF_AUTHORISATION'
        | 'ONE_OFF_AUTHORISATION_CHARITIES'
        | 'ONE_OFF_AUTHORISATION_CONSTRUCTION_INDUSTRY'
        | 'ONE_OFF_AUTHORISATION_TUITION_FEES'
        | 'STANDING_AUTHORISATION_COMPANIES'
        | 'STANDING_AUTHORISATION_COMPANIES_WITHOUT_DEBTOR_REVOCATION_RIGHT'
        | 'STANDING_AUTHORISATION_GENERAL'
        | 'STANDING_AUTHORISATION_LOTTERIES'
        | 'CONVERTED_BANK_PAYMENT'
        | 'BUSINESS_PAYMENT'
        | 'CROSS_BORDER_CUSTOMER_CREDIT_TRANSFER'
        | 'OVERNIGHT'
        | 'PAYMENT_WITH_IRI'
        | 'SAME_DAY'
        | 'CORE_NO_REFUND'
        | 'DIRECT_DEBIT_FIXED_AMOUNT'
        | 'SEPA_DIRECT_DEBIT_CORE'
        | 'SEPA_B2B_DIRECT_DEBIT_AMI'
        | 'SEPA_BUSINESS_TO_BUSINESS_DIRECT_DEBIT'
        | 'SEPA_CORE_D1_DIRECT_DEBIT_AMI'
        | 'SEPA_CORE_DIRECT_DEBIT_AMI'
        | 'SEPA_DIRECT_DEBIT_1_DAY_SETTLEMENT'
        | 'SEPA_FA_DIRECT_DEBIT_AMI'
        | 'INSTANT_CREDIT_TRANSFER'
        | 'AUTHENTICATED_DIRECT_DEBIT'
        | 'UNAUTHENTICATED_DIRECT_DEBIT'
        | 'CASH_CONCENTRATION_INTRAGROUP'
        | 'BANK_TRANSFER'
        | 'CHECK_SAME_DAY_SETTLEMENT_WIRE'
        | 'CUSTOMER_TRANSFER'
        | 'CUSTOMER_TRANSFER_PLUS'
        | 'DEPOSIT_TO_SENDERS_ACCOUNT'
        | 'FED_FUNDS_RETURNED'
        | 'FED_FUNDS_SOLD'
        | 'NON_VALUE_SERVICE_MESSAGE'
        | 'DRAWDOWN_RESPONSE_VALUE_TO_HONOR_A_DRAWDOWN_REQUEST'
        | 'BANK_TO_BANK_DRAWDOWN_REQUEST_OR_RESPONSE_NON_VALUE'
        | 'CUSTOMER_OR_CORPORATE_DRAWDOWN_REQUEST_OR_RESPONSE_NON_VALUE'
        | 'INTERNATIONAL_ACH'
        | 'CASH_CONCENTRATION_OR_DISBURSEMENT_CORPORATE_COUNTERPARTY'
        | 'CORPORATE_TRADE_EXCHANGE'
        | 'PREARRANGED_PAYMENT_OR_DEPOSIT_CONSUMER_COUNTERPARTY'
        | 'CUSTOMER_INITIATED_ENTRY'
        | 'REPRESENTED_CHECK_ENTRY'
        | 'ACCOUNTS_RECEIVABLE_CHECK'
        | 'INTERNET_INITIATED_ENTRY'
        | 'POINT_OF_PURCHASE'
        | 'POINT_OF_SALE'
        | 'TELEPHONE_INITIATED_ENTRY';
      paymentArrangement?: components['schemas']['PaymentArrangement'];
      remittanceInfo?: components['schemas']['RemittanceInfo'];
    };
    PaymentArrangement: {
      /** @enum {string} */
      serviceType?:
        | 'CREDIT_TRANSFER_SERVICE'
        | 'STANDING_ORDER_SERVICE'
        | 'DIRECT_DEBIT_SERVICE'
        | 'CARD_PAYMENT_SERVICE'
        | 'WITHDRAW_SERVICE'
        | 'DEPOSIT_SERVICE'
        | 'OVERDRAFT_SERVICE'
        | 'MONEY_REMITTANCE_SERVICE'
        | 'STATEMENT_SERVICE';
      paymentType?: components['schemas']['TransactionCode'];
      /**
       * @description Means of payment.
       * @enum {string}
       */
      paymentMethod?: 'CHK' | 'TRF' | 'DD' | 'TRA' | 'DIRE' | 'CLAS';
      /** @enum {string} */
      categoryPurpose?:
        | 'INTC'
        | 'CORT'
        | 'SALA'
        | 'TREA'
        | 'CASH'
        | 'DIVI'
        | 'GOVT'
        | 'INTE'
        | 'LOAN'
        | 'PENS'
        | 'SECU'
        | 'SSBE'
        | 'TAXS'
        | 'VATX'
        | 'SUPP'
        | 'HEDG'
        | 'TRAD'
        | 'WHLD';
      /** @description Free-text purpose of the payment. */
      purpose?: string;
      /** @enum {string} */
      paymentSeq?: 'FIRST' | 'RECURRING' | 'FINAL' | 'ONEOFF' | 'REPRESENTED';
    };
    /** @description Information for reconciling the payment with what it settles. */
    RemittanceInfo: {
      /** @enum {string} */
      type?: 'STRUCTURED' | 'UNSTRUCTURED';
      content?: string;
    };
    PaymentInstructionReference: {
      /** @description Unique identifier of the instruction, set by the service; used as `externalReferenceNo`. Ignored by createPayment; updatePayment accepts it when it is the payment's own (422 otherwise). */
      identification?: string;
      /** @description Identifier of the payment in the client's own system. */
      externalId?: string;
      /** @description Tag issued by the initiator to refer to the transaction. */
      reference?: components['schemas']['Identifier'];
      /** @description Short description. */
      description?: string;
      /** @description Mechanism the bank decided to use to execute the instruction (set by the service from the Used-Mechanism header; a value sent in a body is ignored). */
      usedMechanism?: components['schemas']['Identifier'];
      /** @description Status of the instruction (set by the service; null when not yet known). A value sent in a body is ignored, so a record read with getPayment can be sent back as it is. */
      status?: components['schemas']['PaymentStatus'];
      /** @description Reason code of acceptance or rejection by the connecting system (set by the service; a value sent in a body is ignored). */
      reason?: string | null;
      /**
       * @description Set by validatePayment when the instruction would be refused: every problem found, each with
       *     the JSON pointer of the field, the rule's stable code, its ISO 20022 status reason code and a
       *     message (the per-field status reasons of an ISO 20022 pain.002 status report). `reason`
       *     repeats the first one's code. A value sent in a body is ignored.
       */
      statusReasons?: components['schemas']['StatusReason'][];
      /**
       * @description Set by the service for a scheduled payment: instances of the schedule still to execute (the
       *     total less those cancelled with cancelPayment); null for an open-ended standing order. A
       *     value sent in a body is ignored.
       */
      remainingInstances?: number | null;
      /**
       * @description Set by the service for a scheduled payment: the date of the next instance still to execute
       *     (today or later); absent when none is left. A value sent in a body is ignored.
       */
      nextExecutionDate?: components['schemas']['DateTime'];
      /** @description Set by the service on an instance of a standing order or schedule (the order's identification); ignored in a request. */
      standingOrderIdentification?: string;
      /**
       * Format: uuid
       * @description Universally unique end-to-end transaction reference (UUID).
       */
      uetr?: string;
      /** @description End-to-end identification assigned by the initiating party, passed on unchanged. */
      etoeIdentification?: components['schemas']['Identifier'];
    };
    CancellationRequest: {
      /** @description Identifier of the payment transaction. */
      identification?: components['schemas']['Identifier'];
      /** Format: uuid */
      uetr?: string;
      etoeIdentification?: components['schemas']['Identifier'];
      /**
       * @description What to cancel; SINGLE_PAYMENT_INSTANCE when omitted.
       * @default SINGLE_PAYMENT_INSTANCE
       * @enum {string}
       */
      cancellationType?:
        'SINGLE_PAYMENT_INSTANCE' | 'MULTIPLE_PAYMENT_INSTANCE' | 'COMPLETE_SCHEDULE';
      /** @description Number of upcoming instances to cancel (1 to 9999, as a string); required with MULTIPLE_PAYMENT_INSTANCE. */
      noOfInstances?: string;
    };
    CancellationResult: {
      /** @description Outcome of the cancellation, "success" or "failure". */
      status: string;
      /** @description Reason code of acceptance or rejection by the connecting system. */
      reasonCode?: string;
      /** @description Human-readable reason. */
      reasonDescription?: string;
    };
    /** @description A prospective payment to quote (request) and its fees (response). */
    FeeQueryRecord: {
      identification?: components['schemas']['Identifier'];
      usedMechanism?: components['schemas']['Identifier'];
      /** @description Business function of the payment type. */
      businessFunction?: components['schemas']['Identifier'];
      chargeBearer?: components['schemas']['ChargeBearer'];
      priority?: components['schemas']['Priority'];
      payerReference?: components['schemas']['PartyReference'];
      payerBankReference?: components['schemas']['PartyReference'];
      payeeReference?: components['schemas']['PartyReference'];
      payeeBankReference?: components['schemas']['PartyReference'];
      payerAccountReference?: components['schemas']['AccountReference'];
      payeeAccountReference?: components['schemas']['AccountReference'];
      amount?: components['schemas']['Amount'];
      appliedFee?: components['schemas']['AppliedFee'][];
      dates?: components['schemas']['FeeDate'][];
      customFields?: components['schemas']['CustomFields'];
    };
    FeeDate: {
      dateTime?: components['schemas']['DateTime'];
      /** @enum {string} */
      dateType?:
        | 'REQUESTED_EXECUTION_DATE'
        | 'ACCEPTANCE_DATE'
        | 'EXECUTION_DATE'
        | 'VALUE_DATE'
        | 'SETTLEMENT_DATE'
        | 'DELIVERY_DATE'
        | 'EXPIRY_DATE'
        | 'CUT_OFF_TIME';
    };
    BankLookupRequest: {
      /** @description The code to look up (routing number, IBAN, BIC, branch code, BBAN …). */
      identificationNumber: string;
      /**
       * @description What kind of code `identificationNumber` is.
       * @enum {string}
       */
      identificationType:
        'ROUTING_NUMBER' | 'IBAN' | 'SWIFT_CODE' | 'BANK_BRANCH_CODE' | 'BBAN' | 'OTHERS';
      bankName?: components['schemas']['Name'];
      branchCode?: components['schemas']['Identifier'];
      country?: components['schemas']['CountryCode'];
      customFields?: components['schemas']['CustomFields'];
    };
    BankDetails: {
      /** @description Routing number (or other identification) of the participant. */
      identification?: components['schemas']['Identifier'];
      bankName?: components['schemas']['Name'];
      bankCode?: components['schemas']['Identifier'];
      branchCode?: components['schemas']['Identifier'];
      /** @description UK sort code. */
      sortCode?: components['schemas']['Identifier'];
      /** @description BIC (SWIFT code), 8 or 11 characters. */
      bic?: string;
      /** @description Supported transfer types (ACH, WIRE …); ACH when unknown. */
      transferSupportType?: components['schemas']['Identifier'][];
      /** @description Services the institution accepts. */
      serviceSupportType?: components['schemas']['Identifier'][];
      /** @description Federal Reserve district (one of twelve), for US banks. */
      federalReserveDistrict?: components['schemas']['Identifier'];
      /** @description Name of the real-time-payment participant. */
      participantName?: components['schemas']['Name'];
      /** @description Supported payment networks. */
      network?: components['schemas']['Identifier'][];
      /** @enum {string} */
      status?: 'ACTIVE' | 'INACTIVE';
      address?: components['schemas']['Address'];
      customFields?: components['schemas']['CustomFields'];
    };
    PaymentList: {
      items: components['schemas']['PaymentRecord'][];
      /** @description Cursor of the next page; null on the last page. */
      nextCursor: string | null;
    };
    PaymentHistory: {
      items: components['schemas']['PaymentHistoryEntry'][];
      /** @description Cursor of the next (older) page; null on the last page. */
      nextCursor: string | null;
    };
    /** @description One change of a payment order. */
    PaymentHistoryEntry: {
      /** @description Version of the payment the change produced (its ETag is "v<version>"). */
      version: number;
      /** @description When the change was made (the service's clock). */
      at: components['schemas']['DateTime'];
      /**
       * @description CREATED (createPayment), UPDATED (updatePayment), CANCELLED (cancelPayment: the payment,
       *     instances of its schedule or the whole schedule) or STATUS_CHANGED (by the bank's clearing
       *     side).
       * @enum {string}
       */
      kind: 'CREATED' | 'UPDATED' | 'CANCELLED' | 'STATUS_CHANGED';
      /** @description Who made the change, `user:<id>` (the owner) or `operator:…<last 4 characters of its credential>`. */
      actor: string;
      /** @description Reason code of the change (for example an ISO 20022 status or cancellation reason code), null when none was given. */
      reason: string | null;
      /** @description Status before the change, present when the status changed (null at creation). */
      fromStatus?: components['schemas']['PaymentStatus'];
      /** @description Status after the change, present when the status changed. */
      toStatus?: components['schemas']['PaymentStatusValue'];
      /**
       * @description UPDATED: each changed field of the payment record (at most 50), with its JSON pointer and its
       *     value before and after as text (null when absent). Numbers are exact decimal strings (the
       *     instructed amount with the currency's minor unit); long texts are cut at 200 characters;
       *     values of credential-like members (password, secret, token, key …) read "[redacted]".
       */
      changes?: components['schemas']['FieldChange'][];
      /** @description True when more fields changed than `changes` lists. */
      changesTruncated?: boolean;
      /** @description With CANCELLED, what was cancelled. */
      cancellation?: {
        /**
         * @description The cancellation type of the request.
         * @enum {string}
         */
        cancellationType:
          'SINGLE_PAYMENT_INSTANCE' | 'MULTIPLE_PAYMENT_INSTANCE' | 'COMPLETE_SCHEDULE';
        /** @description Schedule instances cancelled by this request (absent for a payment without a schedule or an open-ended one cancelled as a whole). */
        instances?: number;
      };
      /** @description Text explaining the change (the cancellation result, or the bank's description of a status change). */
      description?: string;
      /**
       * @description With a status change by the execution engine or the operator: its ISO 20022 payment status
       *     (ACSP settlement in process, ACSC settled, RJCT rejected, CANC cancelled …).
       */
      isoStatus?: string;
      /** @description With RJCT, the ISO 20022 status reason code (AM04 insufficient funds, AC04 closed account, AC01 unknown account, AM03 currency not convertible). */
      isoReason?: string;
    };
    /** @description One changed field of a payment record. */
    FieldChange: {
      /** @description JSON Pointer (RFC 6901) to the field in the payment record. */
      pointer: string;
      /** @description Value before the change as text (numbers as exact decimal strings, booleans as true / false); null when the field was absent. */
      before: string | null;
      /** @description Value after the change as text; null when the field was removed. */
      after: string | null;
    };
    /** @description RFC 9457 problem details. */
    Problem: {
      /**
       * Format: uri-reference
       * @description URI reference identifying the problem type.
       */
      type: string;
      title: string;
      status: number;
      detail?: string;
      /** Format: uri-reference */
      instance?: string;
      /** @description Stable machine-readable error code (see docs/errors). */
      code?: string;
      /** @description Individual problems with the request, one per offending field. */
      errors?: components['schemas']['ProblemError'][];
      /** @description With 409 `INVALID_STATE`, the payment's current status, which does not allow the operation. */
      paymentStatus?: components['schemas']['PaymentStatusValue'];
      /** @description With 412 `PRECONDITION_FAILED`, the payment's current `ETag`; get the payment again and retry with it. */
      currentETag?: string;
      /** @description With 409 `POSSIBLE_DUPLICATE`, the earlier payment this order repeats (its `identification`); send the header Confirm-Duplicate with the value true to make a second payment. */
      duplicateOf?: string;
    };
    ProblemError: {
      /** @description JSON Pointer (RFC 6901) to the offending member of the body, or the parameter name prefixed with its location (for example `header/Timestamp`). */
      pointer: string;
      code: string;
      message: string;
      /** @description ISO 20022 status reason code of a broken business rule (422 `BUSINESS_RULE_VIOLATION`), for example AC01 or AM04. */
      reason?: components['schemas']['StatusReasonCode'];
    };
    /**
     * @description ISO 20022 external status reason code (ExternalStatusReason1Code, four characters).
     * @example AC01
     */
    StatusReasonCode: string;
    /** @description One problem of a payment instruction, as validatePayment reports it. */
    StatusReason: {
      /** @description JSON Pointer (RFC 6901) to the field the problem is about. */
      pointer: string;
      /** @description Stable code of the broken rule (see docs/errors). */
      code: components['schemas']['Identifier'];
      reason: components['schemas']['StatusReasonCode'];
      /** @description What is wrong, for a person. */
      message: string;
    };
  };
  responses: {
    /** @description Bad Request. The request is malformed (unparsable JSON, invalid parameter or header, body not matching the schema). */
    BadRequest: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description Unauthorized. Credentials are missing, invalid or expired. */
    Unauthorized: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description Not Found. No such payment for this caller, or no bank matches the look-up. */
    NotFound: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description Conflict. The payment's state does not allow the operation, or a request with the same idempotency key is still in progress. */
    Conflict: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description Precondition Failed. `If-Match` does not match the payment's current version. */
    PreconditionFailed: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description Unsupported Media Type. The body must be `application/json`. */
    UnsupportedMediaType: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description Unprocessable Content. The body is well-formed but breaks a business rule (for example too many decimals for the currency, invalid IBAN), or an idempotency key was reused with a different body. */
    UnprocessableContent: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description Too Many Requests. Slow down; see `Retry-After`. */
    TooManyRequests: {
      headers: {
        'Retry-After': components['headers']['RetryAfter'];
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
    /** @description Internal Server Error. Something failed on the server; the request may be retried with the same idempotency key. */
    InternalError: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/problem+json': components['schemas']['Problem'];
      };
    };
  };
  parameters: {
    /**
     * @description Reference of the payment order: the `paymentInstructionReference.identification` returned by
     *     createPayment (or shown by listPayments). 1 to 64 letters, digits, dots, underscores or hyphens.
     */
    ExternalReferenceNo: string;
    /**
     * @description Recommended. A unique key (for example a UUID) chosen by the client for this request, 1 to 255
     *     visible ASCII characters. Retrying with the same key and the same body returns the first
     *     answer instead of acting twice; the same key with a different body is refused (422). The
     *     header `Idempotency-Key` is accepted as a synonym.
     */
    IdempotentRequestKey: string;
    /** @description `true`: pay even though the order repeats a recent identical one (else 409). */
    ConfirmDuplicate: 'true' | 'false';
    /** @description When the client created the request, as an RFC 3339 date-time (for example 2026-11-22T09:30:00Z). */
    Timestamp: string;
    /** @description Type of the payment / payment mechanism the client intends (for example SEPA, SWIFT, ACH), at most 35 characters. */
    UsedMechanism: string;
    /**
     * @description The `ETag` returned by getPayment (or a previous update). When given, the update only happens if
     *     the payment still has that version; otherwise the call answers 412 and nothing changes.
     */
    IfMatch: string;
    /** @description Only return payments currently in this status. */
    StatusFilter: components['schemas']['PaymentStatusValue'];
    /** @description Maximum number of payments on one page, 1 to 100 (default 20). */
    Limit: number;
    /** @description Maximum number of history entries on one page, 1 to 100 (default 20). */
    HistoryLimit: number;
    /** @description Opaque cursor from the `nextCursor` of a previous page; omit it for the first page. */
    Cursor: string;
  };
  requestBodies: never;
  headers: {
    /** @description Version of the payment record; send it as `If-Match` to updatePayment. */
    ETag: string;
    /** @description Path of the created payment, relative to the server URL. */
    Location: string;
    /** @description Seconds to wait before retrying. */
    RetryAfter: number;
  };
  pathItems: never;
}
export type Identifier = components['schemas']['Identifier'];
export type Name = components['schemas']['Name'];
export type CurrencyCode = components['schemas']['CurrencyCode'];
export type CountryCode = components['schemas']['CountryCode'];
export type PositiveAmount = components['schemas']['PositiveAmount'];
export type DateTime = components['schemas']['DateTime'];
export type CustomFields = components['schemas']['CustomFields'];
export type TransactionCode = components['schemas']['TransactionCode'];
export type PaymentStatusValue = components['schemas']['PaymentStatusValue'];
export type PaymentStatus = components['schemas']['PaymentStatus'];
export type ChargeBearer = components['schemas']['ChargeBearer'];
export type Priority = components['schemas']['Priority'];
export type PersonIdType = components['schemas']['PersonIdType'];
export type OrganisationIdType = components['schemas']['OrganisationIdType'];
export type PaymentRecord = components['schemas']['PaymentRecord'];
export type PaymentCreateRequest = components['schemas']['PaymentCreateRequest'];
export type PartyReference = components['schemas']['PartyReference'];
export type InvolvedParty = components['schemas']['InvolvedParty'];
export type OrganisationIdentification = components['schemas']['OrganisationIdentification'];
export type PersonIdentification = components['schemas']['PersonIdentification'];
export type Address = components['schemas']['Address'];
export type AccountReference = components['schemas']['AccountReference'];
export type PaymentInstructionAccount = components['schemas']['PaymentInstructionAccount'];
export type PaymentInstruction = components['schemas']['PaymentInstruction'];
export type Amount = components['schemas']['Amount'];
export type PaymentDates = components['schemas']['PaymentDates'];
export type ProcessingValidityTime = components['schemas']['ProcessingValidityTime'];
export type Schedule = components['schemas']['Schedule'];
export type ExchangeRate = components['schemas']['ExchangeRate'];
export type AppliedFee = components['schemas']['AppliedFee'];
export type PaymentProcessingConfiguration =
  components['schemas']['PaymentProcessingConfiguration'];
export type PaymentArrangement = components['schemas']['PaymentArrangement'];
export type RemittanceInfo = components['schemas']['RemittanceInfo'];
export type PaymentInstructionReference = components['schemas']['PaymentInstructionReference'];
export type CancellationRequest = components['schemas']['CancellationRequest'];
export type CancellationResult = components['schemas']['CancellationResult'];
export type FeeQueryRecord = components['schemas']['FeeQueryRecord'];
export type FeeDate = components['schemas']['FeeDate'];
export type BankLookupRequest = components['schemas']['BankLookupRequest'];
export type BankDetails = components['schemas']['BankDetails'];
export type PaymentList = components['schemas']['PaymentList'];
export type PaymentHistory = components['schemas']['PaymentHistory'];
export type PaymentHistoryEntry = components['schemas']['PaymentHistoryEntry'];
export type FieldChange = components['schemas']['FieldChange'];
export type Problem = components['schemas']['Problem'];
export type ProblemError = components['schemas']['ProblemError'];
export type StatusReasonCode = components['schemas']['StatusReasonCode'];
export type StatusReason = components['schemas']['StatusReason'];
export type ResponseBadRequest = components['responses']['BadRequest'];
export type ResponseUnauthorized = components['responses']['Unauthorized'];
export type ResponseNotFound = components['responses']['NotFound'];
export type ResponseConflict = components['responses']['Conflict'];
export type ResponsePreconditionFailed = components['responses']['PreconditionFailed'];
export type ResponseUnsupportedMediaType = components['responses']['UnsupportedMediaType'];
export type ResponseUnprocessableContent = components['responses']['UnprocessableContent'];
export type ResponseTooManyRequests = components['responses']['TooManyRequests'];
export type ResponseInternalError = components['responses']['InternalError'];
export type ParameterExternalReferenceNo = components['parameters']['ExternalReferenceNo'];
export type ParameterIdempotentRequestKey = components['parameters']['IdempotentRequestKey'];
export type ParameterConfirmDuplicate = components['parameters']['ConfirmDuplicate'];
export type ParameterTimestamp = components['parameters']['Timestamp'];
export type ParameterUsedMechanism = components['parameters']['UsedMechanism'];
export type ParameterIfMatch = components['parameters']['IfMatch'];
export type ParameterStatusFilter = components['parameters']['StatusFilter'];
export type ParameterLimit = components['parameters']['Limit'];
export type ParameterHistoryLimit = components['parameters']['HistoryLimit'];
export type ParameterCursor = components['parameters']['Cursor'];
export type HeaderETag = components['headers']['ETag'];
export type HeaderLocation = components['headers']['Location'];
export type HeaderRetryAfter = components['headers']['RetryAfter'];
export type $defs = Record<string, never>;
export interface operations {
  listPayments: {
    parameters: {
      query?: {
        /** @description Only return payments currently in this status. */
        status?: components['parameters']['StatusFilter'];
        /** @description Maximum number of payments on one page, 1 to 100 (default 20). */
        limit?: components['parameters']['Limit'];
        /** @description Opaque cursor from the `nextCursor` of a previous page; omit it for the first page. */
        cursor?: components['parameters']['Cursor'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK. One page of payment records. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PaymentList'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  createPayment: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Recommended. A unique key (for example a UUID) chosen by the client for this request, 1 to 255
         *     visible ASCII characters. Retrying with the same key and the same body returns the first
         *     answer instead of acting twice; the same key with a different body is refused (422). The
         *     header `Idempotency-Key` is accepted as a synonym.
         */
        'Idempotent-Request-Key'?: components['parameters']['IdempotentRequestKey'];
        /** @description When the client created the request, as an RFC 3339 date-time (for example 2026-11-22T09:30:00Z). */
        Timestamp?: components['parameters']['Timestamp'];
        /** @description Type of the payment / payment mechanism the client intends (for example SEPA, SWIFT, ACH), at most 35 characters. */
        'Used-Mechanism'?: components['parameters']['UsedMechanism'];
        /** @description `true`: pay even though the order repeats a recent identical one (else 409). */
        'Confirm-Duplicate'?: components['parameters']['ConfirmDuplicate'];
      };
      path?: never;
      cookie?: never;
    };
    /** @description The payment order to create. */
    requestBody: {
      content: {
        'application/json': components['schemas']['PaymentCreateRequest'];
      };
    };
    responses: {
      /** @description Created. The stored payment record. */
      201: {
        headers: {
          ETag: components['headers']['ETag'];
          Location: components['headers']['Location'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PaymentRecord'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      409: components['responses']['Conflict'];
      415: components['responses']['UnsupportedMediaType'];
      422: components['responses']['UnprocessableContent'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  getPayment: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description Reference of the payment order: the `paymentInstructionReference.identification` returned by
         *     createPayment (or shown by listPayments). 1 to 64 letters, digits, dots, underscores or hyphens.
         */
        externalReferenceNo: components['parameters']['ExternalReferenceNo'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK. The payment record. */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PaymentRecord'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  updatePayment: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description The `ETag` returned by getPayment (or a previous update). When given, the update only happens if
         *     the payment still has that version; otherwise the call answers 412 and nothing changes.
         */
        'If-Match'?: components['parameters']['IfMatch'];
        /**
         * @description Recommended. A unique key (for example a UUID) chosen by the client for this request, 1 to 255
         *     visible ASCII characters. Retrying with the same key and the same body returns the first
         *     answer instead of acting twice; the same key with a different body is refused (422). The
         *     header `Idempotency-Key` is accepted as a synonym.
         */
        'Idempotent-Request-Key'?: components['parameters']['IdempotentRequestKey'];
        /** @description When the client created the request, as an RFC 3339 date-time (for example 2026-11-22T09:30:00Z). */
        Timestamp?: components['parameters']['Timestamp'];
        /** @description Type of the payment / payment mechanism the client intends (for example SEPA, SWIFT, ACH), at most 35 characters. */
        'Used-Mechanism'?: components['parameters']['UsedMechanism'];
      };
      path: {
        /**
         * @description Reference of the payment order: the `paymentInstructionReference.identification` returned by
         *     createPayment (or shown by listPayments). 1 to 64 letters, digits, dots, underscores or hyphens.
         */
        externalReferenceNo: components['parameters']['ExternalReferenceNo'];
      };
      cookie?: never;
    };
    /** @description The new content of the payment record. */
    requestBody: {
      content: {
        'application/json': components['schemas']['PaymentRecord'];
      };
    };
    responses: {
      /** @description OK. The updated payment record. */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PaymentRecord'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      412: components['responses']['PreconditionFailed'];
      415: components['responses']['UnsupportedMediaType'];
      422: components['responses']['UnprocessableContent'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  cancelPayment: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Recommended. A unique key (for example a UUID) chosen by the client for this request, 1 to 255
         *     visible ASCII characters. Retrying with the same key and the same body returns the first
         *     answer instead of acting twice; the same key with a different body is refused (422). The
         *     header `Idempotency-Key` is accepted as a synonym.
         */
        'Idempotent-Request-Key'?: components['parameters']['IdempotentRequestKey'];
        /** @description When the client created the request, as an RFC 3339 date-time (for example 2026-11-22T09:30:00Z). */
        Timestamp?: components['parameters']['Timestamp'];
        /** @description Type of the payment / payment mechanism the client intends (for example SEPA, SWIFT, ACH), at most 35 characters. */
        'Used-Mechanism'?: components['parameters']['UsedMechanism'];
      };
      path: {
        /**
         * @description Reference of the payment order: the `paymentInstructionReference.identification` returned by
         *     createPayment (or shown by listPayments). 1 to 64 letters, digits, dots, underscores or hyphens.
         */
        externalReferenceNo: components['parameters']['ExternalReferenceNo'];
      };
      cookie?: never;
    };
    /** @description What to cancel. An empty body cancels a single payment instance. */
    requestBody?: {
      content: {
        'application/json': components['schemas']['CancellationRequest'];
      };
    };
    responses: {
      /** @description OK. The cancellation result, successful or refused (`status` "failure"). */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CancellationResult'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      415: components['responses']['UnsupportedMediaType'];
      422: components['responses']['UnprocessableContent'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  getPaymentHistory: {
    parameters: {
      query?: {
        /** @description Maximum number of history entries on one page, 1 to 100 (default 20). */
        limit?: components['parameters']['HistoryLimit'];
        /** @description Opaque cursor from the `nextCursor` of a previous page; omit it for the first page. */
        cursor?: components['parameters']['Cursor'];
      };
      header?: never;
      path: {
        /**
         * @description Reference of the payment order: the `paymentInstructionReference.identification` returned by
         *     createPayment (or shown by listPayments). 1 to 64 letters, digits, dots, underscores or hyphens.
         */
        externalReferenceNo: components['parameters']['ExternalReferenceNo'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK. One page of history entries, newest first. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PaymentHistory'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  validatePayment: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Recommended. A unique key (for example a UUID) chosen by the client for this request, 1 to 255
         *     visible ASCII characters. Retrying with the same key and the same body returns the first
         *     answer instead of acting twice; the same key with a different body is refused (422). The
         *     header `Idempotency-Key` is accepted as a synonym.
         */
        'Idempotent-Request-Key'?: components['parameters']['IdempotentRequestKey'];
        /** @description When the client created the request, as an RFC 3339 date-time (for example 2026-11-22T09:30:00Z). */
        Timestamp?: components['parameters']['Timestamp'];
        /** @description Type of the payment / payment mechanism the client intends (for example SEPA, SWIFT, ACH), at most 35 characters. */
        'Used-Mechanism'?: components['parameters']['UsedMechanism'];
      };
      path?: never;
      cookie?: never;
    };
    /** @description The payment instruction to check. */
    requestBody: {
      content: {
        'application/json': components['schemas']['PaymentRecord'];
      };
    };
    responses: {
      /** @description Created. The submitted record with the validation status and reason filled in. */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PaymentRecord'];
        };
      };
      400: components['responses']['BadRequest'];
      415: components['responses']['UnsupportedMediaType'];
      422: components['responses']['UnprocessableContent'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  fetchPaymentFees: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Recommended. A unique key (for example a UUID) chosen by the client for this request, 1 to 255
         *     visible ASCII characters. Retrying with the same key and the same body returns the first
         *     answer instead of acting twice; the same key with a different body is refused (422). The
         *     header `Idempotency-Key` is accepted as a synonym.
         */
        'Idempotent-Request-Key'?: components['parameters']['IdempotentRequestKey'];
        /** @description When the client created the request, as an RFC 3339 date-time (for example 2026-11-22T09:30:00Z). */
        Timestamp?: components['parameters']['Timestamp'];
        /** @description Type of the payment / payment mechanism the client intends (for example SEPA, SWIFT, ACH), at most 35 characters. */
        'Used-Mechanism'?: components['parameters']['UsedMechanism'];
      };
      path?: never;
      cookie?: never;
    };
    /** @description The prospective payment to quote. */
    requestBody: {
      content: {
        'application/json': components['schemas']['FeeQueryRecord'];
      };
    };
    responses: {
      /** @description Created. The fee query record with the applied fees and dates. */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['FeeQueryRecord'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      415: components['responses']['UnsupportedMediaType'];
      422: components['responses']['UnprocessableContent'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
  fetchBankDetails: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Recommended. A unique key (for example a UUID) chosen by the client for this request, 1 to 255
         *     visible ASCII characters. Retrying with the same key and the same body returns the first
         *     answer instead of acting twice; the same key with a different body is refused (422). The
         *     header `Idempotency-Key` is accepted as a synonym.
         */
        'Idempotent-Request-Key'?: components['parameters']['IdempotentRequestKey'];
        /** @description When the client created the request, as an RFC 3339 date-time (for example 2026-11-22T09:30:00Z). */
        Timestamp?: components['parameters']['Timestamp'];
        /** @description Type of the payment / payment mechanism the client intends (for example SEPA, SWIFT, ACH), at most 35 characters. */
        'Used-Mechanism'?: components['parameters']['UsedMechanism'];
      };
      path?: never;
      cookie?: never;
    };
    /** @description What to look up. */
    requestBody: {
      content: {
        'application/json': components['schemas']['BankLookupRequest'];
      };
    };
    responses: {
      /** @description OK. The bank's details. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['BankDetails'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      415: components['responses']['UnsupportedMediaType'];
      422: components['responses']['UnprocessableContent'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['InternalError'];
    };
  };
}
