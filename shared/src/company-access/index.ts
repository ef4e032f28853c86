// A company's own sign-in and directory, the forms and values the admin panel and the company's setup page share.
export * from './texts';
export * from './CopyButton';
export * from './Facts';
export * from './TextAreaField';
export * from './TextFileField';
export * from './MetadataField';
export * from './AccessFormParts';
export * from './SsoConnectionForm';
export * from './ProtocolChoice';
export * from './SamlValues';
