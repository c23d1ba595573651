/**
 * The problems an operation can answer with now live in domain/problems.ts (the one catalogue, below
 * every layer that raises them); re-exported here so existing imports keep working.
 */
export { invalidParameter, invalidRequest, OperationError, type ParameterError, type ProblemCode } from '../domain/problems.js';
