// The complete public surface of @argcheck/instrumentation.
export {};
