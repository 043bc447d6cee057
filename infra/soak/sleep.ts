// The run's waits are measured against deadlines: one already past waits nothing.
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
