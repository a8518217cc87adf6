export {
  createAssertionSigner,
  ASSERTION_TYP,
  type AssertionSigner,
  type SignAssertionInput,
} from './sign.js';
export { loadSigningKey, type GatewaySigningKey, type SigningKeyOptions } from './signing-key.js';
export {
  createAssertionVerifier,
  type AssertionVerifierOptions,
  type VerifiedAssertion,
} from './verify.js';
