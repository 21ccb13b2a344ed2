/**
 * Loads modules step by step, letting the browser run its other tasks between one step and the
 * next: a module graph runs in one task when it arrives, and the app's and the console's each took
 * 70–150 ms of a laptop's main thread, four times that on a phone (issue 28). Each step runs the
 * modules it imports that have not run yet, so a later step finds them done.
 */
export async function inSteps<T>(steps: (() => Promise<unknown>)[], last: () => Promise<T>): Promise<T> {
  for (const step of steps) {
    await step();
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return last();
}
