const { federatedConfig, REMOTES } = require('../scripts/webpack/federation');

module.exports = federatedConfig({
  dir: __dirname,
  name: REMOTES.calculator,
  port: 3004,
  exposes: { './CalculatorPage': './src/pages/calculator/CalculatorPage.tsx' },
  title: 'Calculadora TXI',
});
