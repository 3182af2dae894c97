/**
 * Polling helpers for tests that run external programs (the collector,
 * Prometheus, Alertmanager): the stack's own, so tests wait the way it does.
 */
export { waitFor } from '../../deploy/stack/src/wait.js';
export { freePort } from '../../deploy/stack/src/ports.js';
