// Moved to src/browser.ts; kept for the files being rewritten (LoginPage.tsx,
// epicSignIn/EmailVerificationPage.tsx, admin/messages/RecentMessages.tsx) until their imports change.
export { assignLocation, closeWindow, saveFile } from '../browser';
