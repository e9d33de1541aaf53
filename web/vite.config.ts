import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The gateway (services/gateway) serves the API, the Socket.IO server and, in
// production, this app's build output. In development Vite serves the app and
// forwards everything else to a locally running gateway (`npm run dev` at the root).
const gateway = "http://127.0.0.1:3000";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  plugins: [react(), tailwindcss()],
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      "/api": { target: gateway, changeOrigin: true },
      "/v1": { target: gateway, changeOrigin: true },
      "/health": { target: gateway, changeOrigin: true },
      "/socket.io": { target: gateway, changeOrigin: true, ws: true },
    },
  },
  preview: { port: 4173, strictPort: true },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: true,
  },
});
