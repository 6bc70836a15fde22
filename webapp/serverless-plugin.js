// A Serverless Framework plugin of this project: builds the browser app (webapp/build.ts) before
// the functions are packaged, so the functions that serve it (routes.json `webapp`: the app's page
// and /static/) package its files (functions/routes.js WEBAPP_PATTERNS). `npm start` and the tests
// build it themselves (scripts/run-local.ts, test/helpers/global-setup.ts).
const { spawnSync } = require('node:child_process');
const path = require('node:path');

class WebappPlugin {
  constructor(serverless) {
    const build = () => {
      const root = path.join(__dirname, '..');
      const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(__dirname, 'build.ts')], { cwd: root, stdio: 'inherit' });
      if (result.status !== 0)
        throw new serverless.classes.Error(`building the web app failed (webapp/build.ts exited with ${result.status})`);
    };
    this.hooks = { 'before:package:createDeploymentArtifacts': build, 'before:deploy:function:packageFunction': build };
  }
}

module.exports = WebappPlugin;
