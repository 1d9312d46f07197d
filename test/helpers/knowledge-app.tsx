/** The knowledge panes' tests mount the app through the one rig (mount-app.tsx). */
export { mountApp, type MountedApp } from './mount-app.js';
