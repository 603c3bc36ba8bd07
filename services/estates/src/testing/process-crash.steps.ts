/** Shared by process-crash.int.spec.ts and its child (importing the child would run it). */
export const ORG = '22222222-2222-4222-8222-222222222222';
export const OWNER = 'abcdef01-2345-4678-89ab-cdef01234567';
/** Where the child kills itself: right after the store acknowledged that step's write. */
export const STEPS = ['update-appended', 'release-appended', 'delete-appended', 'bytes-deleted'] as const;
export type Step = (typeof STEPS)[number];
