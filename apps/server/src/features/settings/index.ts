export { registerInstallSettingsRoutes } from './install-settings-routes';
export { registerPublicRoutes } from './public-routes';
export { mailDeliveryOf, readPublicConfiguration, selfSignUpOpen } from './public-settings';
