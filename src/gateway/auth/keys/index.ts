export { generateSubscriptionKey, isWellFormedKey, KEY_PREFIX, KEY_LENGTH } from './format.js';
export { hashSubscriptionKey } from './hash.js';
export { constantTimeEqual } from './compare.js';
export { maskSecret } from '../../../shared/log/mask.js';
