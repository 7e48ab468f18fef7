console.log('nodesmith');
