export * from "./service";
export { webAppRoutes } from "./routes/web-app";
