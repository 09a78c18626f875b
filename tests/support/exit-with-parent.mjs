// Preloaded (node --import) into the servers the tests start. If the test worker that started one
// dies without stopping it (killed, interrupted), the server is re-parented and stops itself, as
// if stopped normally, instead of holding its port and database directory until someone notices.
const parent = process.ppid;

setInterval(() => {
  if (process.ppid !== parent) process.kill(process.pid, 'SIGTERM');
}, 500).unref();
