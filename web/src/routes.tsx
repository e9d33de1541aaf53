import { lazy, type ComponentType } from "react";
import type { RouteObject } from "react-router";
import { CLIENT_ROUTES, type ClientRoute } from "@sd/contracts";
import { SiteLayout } from "./layout/SiteLayout";

/** Each page is its own chunk, loaded when first visited. */
const page = (load: () => Promise<{ default: ComponentType }>) => {
  const Component = lazy(load);
  return <Component />;
};

/**
 * The page of every route in the specification's route table. The table itself is
 * CLIENT_ROUTES, shared with the gateway (which answers these paths 200 and any other 404), so a
 * route without a page here is a type error.
 */
const PAGES: Record<ClientRoute, () => Promise<{ default: ComponentType }>> = {
  "/": () => import("./pages/LandingPage"),
  "/privacy": () => import("./pages/PrivacyPage"),
  "/terms": () => import("./pages/TermsPage"),
  "/auth/callback": () => import("./pages/AuthCallbackPage"),
  "/console": () => import("./pages/ConsolePage"),
  "/playground": () => import("./pages/PlaygroundPage"),
  "/developers": () => import("./pages/DevelopersPage"),
  "/sd-api": () => import("./pages/SdApiPage"),
  "/careers": () => import("./pages/CareersPage"),
  "/apply-job": () => import("./pages/ApplyJobPage"),
  "/dashboard": () => import("./pages/DashboardPage"),
  "/decision/:id": () => import("./pages/DecisionPage"),
  "/admin": () => import("./pages/AdminPage"),
  "/settings": () => import("./pages/SettingsPage"),
  "/contact": () => import("./pages/ContactPage"),
  "/shared/:token": () => import("./pages/SharedDecisionPage"),
};

export const routes: RouteObject[] = [
  {
    element: <SiteLayout />,
    children: [
      ...CLIENT_ROUTES.map((path): RouteObject => (path === "/" ? { index: true, element: page(PAGES[path]) } : { path: path.slice(1), element: page(PAGES[path]) })),
      { path: "*", element: page(() => import("./pages/NotFoundPage")) },
    ],
  },
];
