// The V8 heaps of a server process's threads, read through its inspector (the process runs
// with `--inspect=127.0.0.1:0`): the main thread's and each worker thread's (the index
// thread, the pool's threads) `v8.getHeapStatistics()`, without any code in the server for it.
// bench/memory.ts samples them beside the process's resident memory.

/** One thread's heap at a sample, in MiB (V8's getHeapStatistics). */
export interface ThreadHeap {
  /** `main`, or the worker's script file name (pool-worker.cjs, pglite-thread-worker.ts). */
  thread: string;
  /** The heap V8 has taken from the system (total_heap_size). */
  heapTotal: number;
  /** Live objects and garbage not yet collected (used_heap_size). */
  heapUsed: number;
  /** Memory outside the heap that V8 was told about (external_memory: buffers, WebAssembly memories). */
  external: number;
  /** What V8 itself malloced (malloced_memory). */
  malloced: number;
}

type Message = { id?: number; method?: string; params?: Record<string, unknown>; result?: unknown; error?: unknown };

const expression = `(() => {
  const s = process.getBuiltinModule('v8').getHeapStatistics();
  return JSON.stringify({ heapTotal: s.total_heap_size, heapUsed: s.used_heap_size, external: s.external_memory, malloced: s.malloced_memory });
})()`;

/**
 * A connection to the inspector at `url` (the `ws://…` address the process printed) that
 * follows its worker threads; `sample()` reads every thread's heap at once. Rejects when the
 * inspector cannot be reached.
 */
export async function connectThreadHeaps(url: string): Promise<{ sample(): Promise<ThreadHeap[]>; close(): void }> {
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new Error(`no inspector at ${url}`)), { once: true });
  });
  let nextId = 1;
  const waiting = new Map<string, (message: Message) => void>();
  /** The attached workers: session id → thread name. */
  const workers = new Map<string, string>();
  socket.addEventListener('message', (event: { data: string }) => {
    const message = JSON.parse(event.data) as Message;
    if (message.method === 'NodeWorker.attachedToWorker') {
      const params = message.params as { sessionId: string; workerInfo: { url: string } };
      workers.set(params.sessionId, params.workerInfo.url.split('/').pop() ?? params.workerInfo.url);
    } else if (message.method === 'NodeWorker.detachedFromWorker') {
      workers.delete((message.params as { sessionId: string }).sessionId);
    } else if (message.method === 'NodeWorker.receivedMessageFromWorker') {
      const params = message.params as { sessionId: string; message: string };
      const inner = JSON.parse(params.message) as Message;
      if (inner.id !== undefined) waiting.get(`${params.sessionId}:${inner.id}`)?.(inner);
    } else if (message.id !== undefined) {
      waiting.get(`:${message.id}`)?.(message);
    }
  });
  function send(method: string, params: Record<string, unknown>, sessionId = ''): Promise<Message> {
    const id = nextId++;
    const answer = new Promise<Message>((resolve) => {
      const timer = setTimeout(() => resolve({ error: 'timeout' }), 10_000);
      waiting.set(`${sessionId}:${id}`, (message) => {
        clearTimeout(timer);
        waiting.delete(`${sessionId}:${id}`);
        resolve(message);
      });
    });
    const request = JSON.stringify({ id, method, params });
    if (sessionId === '') socket.send(request);
    else socket.send(JSON.stringify({ id: nextId++, method: 'NodeWorker.sendMessageToWorker', params: { sessionId, message: request } }));
    return answer;
  }
  await send('NodeWorker.enable', { waitForDebuggerOnStart: false });

  async function heapOf(thread: string, sessionId: string): Promise<ThreadHeap | null> {
    const answer = await send('Runtime.evaluate', { expression, returnByValue: true }, sessionId);
    const value = (answer.result as { result?: { value?: unknown } } | undefined)?.result?.value;
    if (typeof value !== 'string') return null;
    const bytes = JSON.parse(value) as Omit<ThreadHeap, 'thread'>;
    const mib = (n: number) => n / 1024 / 1024;
    return {
      thread,
      heapTotal: mib(bytes.heapTotal),
      heapUsed: mib(bytes.heapUsed),
      external: mib(bytes.external),
      malloced: mib(bytes.malloced),
    };
  }

  return {
    async sample() {
      const heaps = await Promise.all([heapOf('main', ''), ...[...workers].map(([sessionId, thread]) => heapOf(thread, sessionId))]);
      return heaps.filter((heap): heap is ThreadHeap => heap !== null);
    },
    close() {
      socket.close();
    },
  };
}
