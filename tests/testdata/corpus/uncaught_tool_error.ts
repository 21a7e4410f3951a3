// A rejected call left uncaught fails the script; the log before it stays.
const ok = await tools.mcp__srv__fetch({ id: 2 });
console.log(`got ${ok.title}`);
const missing: { title: string } = await tools.mcp__srv__fetch({ id: 404 });
return missing.title;
